#include "analysis/command_line.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace qs::analysis {

std::string parseCommandLine(const std::vector<std::string>& args, bool takesOut,
                             CommandLine* out) {
    CommandLine line;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            line.help = true;
        } else if (a == "--version") {
            line.version = true;
        } else if (takesOut && (a == "--out" || a == "-o")) {
            if (i + 1 >= args.size() || args[i + 1].empty()) {
                return "--out needs a file name";
            }
            line.out = args[++i];
        } else if (takesOut && a.rfind("--out=", 0) == 0) {
            line.out = a.substr(6);
            if (line.out.empty()) {
                return "--out needs a file name";
            }
        } else if (a.size() > 1 && a[0] == '-') {
            return "unknown option '" + a + "'";
        } else {
            line.files.push_back(a);
        }
    }
    if (!line.help && !line.version && takesOut && line.out.empty()) {
        return "--out FILE is required";
    }
    *out = std::move(line);
    return {};
}

std::vector<std::string> argsOf(int argc, char** argv, std::string_view word) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        args.emplace_back(argv[i]);
    }
    if (!args.empty() && args.front() == word) {
        args.erase(args.begin());
    }
    return args;
}

std::unique_ptr<RecordedRun> openRecording(const std::string& command, const std::string& path,
                                           std::ostream& err) {
    std::string error;
    try {
        std::unique_ptr<RecordedRun> run = RecordedRun::load(path, &error);
        if (!run) {
            err << "queuescope " << command << ": " << error << '\n';
        }
        return run;
    } catch (const std::exception& e) {
        // bad_alloc on a hostile file, say: one line, not std::terminate.
        err << "queuescope " << command << ": " << path << ": cannot be read: " << e.what() << '\n';
        return nullptr;
    }
}

bool writeOutput(const std::string& path, std::ostream& stdoutStream,
                 const std::function<void(std::ostream&)>& write, std::string* error) {
    if (path == "-") {
        write(stdoutStream);
        stdoutStream.flush();
        if (!stdoutStream) {
            *error = "cannot write to standard output";
            return false;
        }
        return true;
    }
    const std::string part = path + ".part";
    {
        std::ofstream file(part, std::ios::binary | std::ios::trunc);
        if (!file) {
            *error = path + ": cannot be written: " + std::strerror(errno);
            return false;
        }
        write(file);
        file.flush();
        if (!file) {
            *error = path + ": cannot be written (disk full?)";
            file.close();
            std::error_code ignored;
            std::filesystem::remove(part, ignored);
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(part, path, ec);
    if (ec) {
        *error = path + ": cannot be written: " + ec.message();
        std::filesystem::remove(part, ec);
        return false;
    }
    return true;
}

}  // namespace qs::analysis
