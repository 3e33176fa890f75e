#include "sluice/common/delete_at_exit.h"

#include <filesystem>
#include <mutex>
#include <utility>
#include <vector>

namespace sluice {

namespace {

/// The folders to delete, deleted by the destructor of the one instance, which runs at exit.
class FoldersToDelete {
 public:
  static FoldersToDelete& Instance() {
    static FoldersToDelete folders;
    return folders;
  }

  void Add(std::string path) {
    std::lock_guard<std::mutex> lock(mutex_);
    paths_.push_back(std::move(path));
  }

  ~FoldersToDelete() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::string& path : paths_) {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> paths_;
};

}  // namespace

void DeleteAtExit(std::string path) { FoldersToDelete::Instance().Add(std::move(path)); }

}  // namespace sluice
