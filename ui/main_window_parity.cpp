// Run → Parity check… (docs/ui.md, "Parity check"): the dialog that runs a
// scenario on the embedded broker and on a server (ParityDialog, ParityJob)
// and shows the core's comparison of the two runs.
#include "controllers/connection_controller.h"
#include "dialogs/parity_dialog.h"
#include "main_window.h"

namespace qs::ui {

ParityDialog* MainWindow::parityDialog() {
    if (parity_) {
        parity_->raise();
        parity_->activateWindow();
        return parity_;
    }
    // The console's server is offered, when it has one the check can reach
    // as it is: the parity runs connect without TLS, as `queuescope parity`.
    const ConnectionSettings& current = connection_->settings();
    const bool offerCurrent = !connection_->isEmbedded() && !current.tls &&
                              connection_->state() != ConnectionController::State::Disconnected;
    parity_ = new ParityDialog(offerCurrent ? current.address : QString(),
                               offerCurrent ? current.authToken : QString(), this);
    parity_->setAttribute(Qt::WA_DeleteOnClose);
    parity_->show();
    return parity_;
}

}  // namespace qs::ui
