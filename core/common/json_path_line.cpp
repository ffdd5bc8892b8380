#include "common/json_path_line.h"

#include <optional>
#include <string>

namespace qs {

namespace {

// One pass over the text, naming every value by its path the way
// json_schema does ("a.b[2].c"), until the wanted path is met.
class PathScanner {
public:
    PathScanner(std::string_view text, std::string_view target) : text_(text), target_(target) {}

    std::optional<int> find() {
        value("", 0);
        return found_;
    }

private:
    bool done() const { return found_.has_value() || failed_; }
    bool atEnd() const { return i_ >= text_.size(); }
    char peek() const { return atEnd() ? '\0' : text_[i_]; }

    void skipSpaceAndComments() {
        while (!atEnd()) {
            const char c = text_[i_];
            if (c == '\n') {
                ++line_;
                ++i_;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++i_;
            } else if (text_.substr(i_, 2) == "//") {
                while (!atEnd() && text_[i_] != '\n') {
                    ++i_;
                }
            } else if (text_.substr(i_, 2) == "/*") {
                const std::size_t end = text_.find("*/", i_ + 2);
                const std::size_t stop = end == std::string_view::npos ? text_.size() : end + 2;
                for (; i_ < stop; ++i_) {
                    line_ += text_[i_] == '\n';
                }
            } else {
                return;
            }
        }
    }

    // A string's contents with the simple escapes undone (enough for keys).
    std::string readString() {
        std::string out;
        ++i_;  // the opening quote
        while (!atEnd() && text_[i_] != '"') {
            if (text_[i_] == '\\' && i_ + 1 < text_.size()) {
                ++i_;
            }
            out += text_[i_++];
        }
        if (atEnd()) {
            failed_ = true;
        }
        ++i_;  // the closing quote
        return out;
    }

    void value(const std::string& path, int keyLine) {
        skipSpaceAndComments();
        if (path == target_) {
            found_ = keyLine > 0 ? keyLine : line_;
            return;
        }
        switch (peek()) {
            case '{':
                object(path);
                return;
            case '[':
                array(path);
                return;
            case '"':
                readString();
                return;
            case '\0':
                failed_ = true;
                return;
            default:
                while (!atEnd() &&
                       std::string_view(",]} \t\r\n/").find(text_[i_]) == std::string_view::npos) {
                    ++i_;
                }
        }
    }

    // After a member or element: true when another follows.
    bool another(char close) {
        skipSpaceAndComments();
        if (peek() == ',') {
            ++i_;
            return true;
        }
        if (peek() != close) {
            failed_ = true;
        }
        ++i_;
        return false;
    }

    void object(const std::string& path) {
        ++i_;
        skipSpaceAndComments();
        if (peek() == '}') {
            ++i_;
            return;
        }
        do {
            skipSpaceAndComments();
            if (peek() != '"') {
                failed_ = true;
                return;
            }
            const int keyLine = line_;
            const std::string key = readString();
            skipSpaceAndComments();
            if (peek() != ':') {
                failed_ = true;
                return;
            }
            ++i_;
            value(path.empty() ? key : path + "." + key, keyLine);
        } while (!done() && another('}'));
    }

    void array(const std::string& path) {
        ++i_;
        skipSpaceAndComments();
        if (peek() == ']') {
            ++i_;
            return;
        }
        std::size_t index = 0;
        do {
            value(path + "[" + std::to_string(index++) + "]", 0);
        } while (!done() && another(']'));
    }

    std::string_view text_;
    std::string_view target_;
    std::size_t i_ = 0;
    int line_ = 1;
    bool failed_ = false;
    std::optional<int> found_;
};

// "a.b[2]" -> "a.b" -> "a" -> "".
std::string_view parentPath(std::string_view path) {
    const std::size_t cut = path.find_last_of(".[");
    return cut == std::string_view::npos ? std::string_view() : path.substr(0, cut);
}

}  // namespace

int lineOfJsonPath(std::string_view text, std::string_view path) {
    for (std::string_view p = path;; p = parentPath(p)) {
        if (p.empty()) {
            return 1;
        }
        if (const std::optional<int> line = PathScanner(text, p).find()) {
            return *line;
        }
    }
}

}  // namespace qs
