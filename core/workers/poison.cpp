#include "workers/poison.h"

namespace qs::workers {

bool isPoison(const std::map<std::string, std::string>& tags, std::string_view body) {
    if (auto it = tags.find(std::string(kPoisonTag)); it != tags.end()) {
        const std::string& v = it->second;
        if (v == "true" || v == "TRUE" || v == "True" || v == "1" || v == "yes") {
            return true;
        }
    }
    return body.find(kPoisonBodyMarker) != std::string_view::npos;
}

}  // namespace qs::workers
