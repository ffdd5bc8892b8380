#include "widgets/theme.h"

#include <QApplication>
#include <array>

namespace qs::ui {

QString outcomeName(Outcome outcome) {
    switch (outcome) {
        case Outcome::InFlight:
            return QStringLiteral("in flight");
        case Outcome::Acked:
            return QStringLiteral("acked");
        case Outcome::Rejected:
            return QStringLiteral("rejected (NAck)");
        case Outcome::Returned:
            return QStringLiteral("returned (crash)");
        case Outcome::ReturnedClosed:
            return QStringLiteral("returned (closed)");
        case Outcome::Requeued:
            return QStringLiteral("re-queued");
        case Outcome::DeadLettered:
            return QStringLiteral("dead-lettered");
        case Outcome::Expired:
            return QStringLiteral("expired");
        case Outcome::Count:
            break;
    }
    return QStringLiteral("unknown");
}

namespace {
Theme g_current = Theme::light();
}

QColor Theme::outcome(Outcome o) const {
    const bool dark = kind == ThemeKind::Dark;
    switch (o) {
        case Outcome::InFlight:
            return dark ? QColor(0x4f, 0x9d, 0xff) : QColor(0x25, 0x6f, 0xd8);
        case Outcome::Acked:
            return dark ? QColor(0x3f, 0xc2, 0x7a) : QColor(0x2e, 0x9e, 0x5b);
        case Outcome::Rejected:
            return dark ? QColor(0xff, 0xa6, 0x3d) : QColor(0xe8, 0x86, 0x14);
        case Outcome::Returned:
            return dark ? QColor(0xff, 0x5d, 0x6c) : QColor(0xd9, 0x30, 0x40);
        case Outcome::ReturnedClosed:
            return dark ? QColor(0xf0, 0x7a, 0xc8) : QColor(0xc2, 0x3f, 0x9a);
        case Outcome::Requeued:
            return dark ? QColor(0xb6, 0x8c, 0xff) : QColor(0x7e, 0x57, 0xc2);
        case Outcome::DeadLettered:
            return dark ? QColor(0xa0, 0x5a, 0x3c) : QColor(0x6d, 0x3a, 0x25);
        case Outcome::Expired:
            return dark ? QColor(0x8a, 0x8f, 0x98) : QColor(0x9a, 0xa0, 0xa6);
        case Outcome::Count:
            break;
    }
    return text;
}

QColor Theme::sentColor() const {
    return kind == ThemeKind::Dark ? QColor(0xc9, 0xd1, 0xd9) : QColor(0x45, 0x4f, 0x5a);
}

QColor Theme::waitingColor() const {
    return kind == ThemeKind::Dark ? QColor(0xe3, 0xb3, 0x41) : QColor(0xc7, 0x8f, 0x00);
}

Theme Theme::light() {
    Theme t;
    t.kind = ThemeKind::Light;
    t.window = QColor(0xf4, 0xf5, 0xf7);
    t.panel = QColor(0xff, 0xff, 0xff);
    t.laneAlt = QColor(0xf2, 0xf4, 0xf7);
    t.grid = QColor(0xdd, 0xe1, 0xe6);
    t.text = QColor(0x1f, 0x23, 0x28);
    t.mutedText = QColor(0x6a, 0x73, 0x7d);
    t.marker = QColor(0x8e, 0x44, 0xad);
    t.selection = QColor(0x11, 0x11, 0x11);
    t.waitFill = QColor(0xe6, 0xe9, 0xed);
    t.highlight = QColor(0xe0, 0xa1, 0x00);
    return t;
}

Theme Theme::dark() {
    Theme t;
    t.kind = ThemeKind::Dark;
    t.window = QColor(0x1e, 0x21, 0x26);
    t.panel = QColor(0x16, 0x19, 0x1d);
    t.laneAlt = QColor(0x1c, 0x20, 0x25);
    t.grid = QColor(0x30, 0x36, 0x3d);
    t.text = QColor(0xe6, 0xed, 0xf3);
    t.mutedText = QColor(0x8b, 0x94, 0x9e);
    t.marker = QColor(0xd2, 0xa8, 0xff);
    t.selection = QColor(0xff, 0xff, 0xff);
    t.waitFill = QColor(0x2a, 0x2f, 0x36);
    t.highlight = QColor(0xe3, 0xb3, 0x41);
    return t;
}

const Theme& Theme::current() {
    return g_current;
}

void Theme::setCurrent(ThemeKind kind) {
    g_current = kind == ThemeKind::Dark ? dark() : light();
    if (qApp) {
        QApplication::setPalette(g_current.palette());
    }
}

QPalette Theme::palette() const {
    QPalette p;
    const bool dark = kind == ThemeKind::Dark;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, panel);
    p.setColor(QPalette::AlternateBase, laneAlt);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, dark ? QColor(0x2b, 0x30, 0x37) : QColor(0xfa, 0xfb, 0xfc));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, dark ? QColor(0x2b, 0x30, 0x37) : QColor(0xff, 0xff, 0xe8));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, mutedText);
    p.setColor(QPalette::Highlight, dark ? QColor(0x2f, 0x6f, 0xc4) : QColor(0x2f, 0x7b, 0xe0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, dark ? QColor(0x58, 0xa6, 0xff) : QColor(0x1f, 0x5f, 0xbf));
    p.setColor(QPalette::Mid, grid);
    p.setColor(QPalette::Midlight, dark ? QColor(0x3a, 0x40, 0x48) : QColor(0xe8, 0xeb, 0xef));
    p.setColor(QPalette::Dark, dark ? QColor(0x10, 0x12, 0x15) : QColor(0xa0, 0xa6, 0xad));
    p.setColor(QPalette::Disabled, QPalette::Text, mutedText);
    p.setColor(QPalette::Disabled, QPalette::WindowText, mutedText);
    p.setColor(QPalette::Disabled, QPalette::ButtonText, mutedText);
    return p;
}

QColor Theme::workerColor(int index) const {
    static const std::array<QColor, 10> base = {QColor(0x25, 0x6f, 0xd8), QColor(0x2e, 0x9e, 0x5b),
                                                QColor(0xe8, 0x86, 0x14), QColor(0x7e, 0x57, 0xc2),
                                                QColor(0x00, 0x96, 0x88), QColor(0xd8, 0x1b, 0x60),
                                                QColor(0x5d, 0x6d, 0x7e), QColor(0x8d, 0x6e, 0x63),
                                                QColor(0x43, 0xa0, 0x47), QColor(0xf4, 0x51, 0x1e)};
    QColor c = base[static_cast<std::size_t>(index < 0 ? 0 : index) % base.size()];
    return kind == ThemeKind::Dark ? c.lighter(125) : c;
}

}  // namespace qs::ui
