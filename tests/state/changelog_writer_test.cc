// The writer of delta and changelog files writes full buffers in the background: what it
// commits or reads back is every record in order, and a failed background write fails the
// version instead of being lost.
#include "sluice/state/rocksdb_changelog.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/common/fault_points.h"
#include "support/scratch_dir.h"

namespace sluice::state {
namespace {

using Record = std::pair<std::string, std::optional<std::string>>;

// Enough records for several of the writer's 1 MiB buffers: puts of 1 KiB values, with a
// removal every tenth record.
std::vector<Record> ManyRecords() {
  std::vector<Record> records;
  for (int i = 0; i < 5000; ++i) {
    std::string key = "key-" + std::to_string(i);
    if (i % 10 == 9) {
      records.emplace_back(std::move(key), std::nullopt);
    } else {
      records.emplace_back(std::move(key), std::string(1024, static_cast<char>('a' + i % 26)));
    }
  }
  return records;
}

arrow::Status Append(ChangelogWriter& writer, const Record& record) {
  return record.second ? writer.Put(record.first, *record.second) : writer.Remove(record.first);
}

ChangelogVisitor CollectInto(std::vector<Record>* read) {
  return [read](std::string_view key, std::optional<std::string_view> value) {
    read->emplace_back(std::string(key),
                       value ? std::optional<std::string>(std::string(*value)) : std::nullopt);
    return arrow::Status::OK();
  };
}

/// The records of the committed changelog of `version` at `path`, in file order.
std::vector<Record> ReadCommitted(const std::string& path, int64_t version) {
  std::vector<Record> committed;
  auto status = ReadChangelog(path, "the test's store", version, CollectInto(&committed));
  EXPECT_TRUE(status.ok()) << status.ToString();
  return committed;
}

TEST(ChangelogWriterTest, RecordsOfManyBuffersAreReadBackAndCommittedInOrder) {
  testing::ScratchDir dir;
  const std::string path = dir / "state/0/0/3.changelog";
  auto writer = ChangelogWriter::Open(path, StateFileKind::kChangelog, 3).ValueOrDie();
  const auto records = ManyRecords();
  const size_t half = records.size() / 2;
  for (size_t i = 0; i < half; ++i) ASSERT_TRUE(Append(*writer, records[i]).ok());

  // Read back while writing (as an aborted batch undoes its changes): every record so far.
  std::vector<Record> read_back;
  ASSERT_TRUE(writer->ReadBack(CollectInto(&read_back)).ok());
  EXPECT_EQ(read_back, std::vector<Record>(records.begin(), records.begin() + half));

  for (size_t i = half; i < records.size(); ++i) ASSERT_TRUE(Append(*writer, records[i]).ok());
  auto bytes = writer->Commit();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(*bytes, static_cast<int64_t>(std::filesystem::file_size(path)));
  EXPECT_GT(*bytes, 4 << 20);

  EXPECT_EQ(ReadCommitted(path, 3), records);
}

TEST(ChangelogWriterTest, AFailedBackgroundWriteFailsTheVersion) {
  testing::ScratchDir dir;
  const std::string path = dir / "state/0/0/7.delta";
  // The second write of the file fails: one of the buffers written in the background.
  SetFailPointForTesting(std::string(fault_points::kFileWrite) + ",2,7.delta");
  {
    auto writer = ChangelogWriter::Open(path, StateFileKind::kDelta, 7).ValueOrDie();
    arrow::Status appended;
    for (const auto& record : ManyRecords()) {
      appended = Append(*writer, record);
      if (!appended.ok()) break;
    }
    auto committed = appended.ok() ? writer->Commit().status() : appended;
    ASSERT_FALSE(committed.ok());
    EXPECT_NE(committed.message().find("Cannot write"), std::string::npos) << committed.ToString();
    EXPECT_NE(committed.message().find("7.delta"), std::string::npos) << committed.ToString();
  }
  SetFailPointForTesting("");
  EXPECT_FALSE(std::filesystem::exists(path));
  // Nor is its temp file left behind.
  EXPECT_TRUE(std::filesystem::is_empty(dir / "state/0/0"));
}

/// Whether files in `folder` can be opened with O_DIRECT.
bool DirectWritesWorkIn(const std::string& folder) {
  const std::string probe = folder + "/direct-probe";
  const int fd = ::open(probe.c_str(), O_RDWR | O_CREAT | O_DIRECT, 0644);
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

/// How many of the pages of the file at `path` the page cache holds.
size_t PagesInPageCache(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  const auto size = static_cast<size_t>(std::filesystem::file_size(path));
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((size + page - 1) / page);
  EXPECT_EQ(::mincore(mapped, size, resident.data()), 0);
  ::munmap(mapped, size);
  size_t pages = 0;
  for (unsigned char flags : resident) pages += flags & 1;
  return pages;
}

// A large version goes to the file without being copied into the page cache: the file is
// fsynced at commit anyway, and the copy costs the caller's CPU several times what the
// device's own write does. Only the last partial block goes through the cache.
TEST(ChangelogWriterTest, ALargeVersionIsWrittenAroundThePageCache) {
  testing::ScratchDir dir;
  if (!DirectWritesWorkIn(dir.path())) GTEST_SKIP() << "no O_DIRECT in " << dir.path();
  const std::string path = dir / "state/0/0/5.changelog";
  auto writer = ChangelogWriter::Open(path, StateFileKind::kChangelog, 5).ValueOrDie();
  const auto records = ManyRecords();
  for (const auto& record : records) ASSERT_TRUE(Append(*writer, record).ok());
  auto bytes = writer->Commit();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_LE(PagesInPageCache(path), 2u) << "of " << *bytes / 4096 << " pages";
  EXPECT_EQ(ReadCommitted(path, 5), records);
}

// Records that end exactly on a block boundary leave nothing staged: the checksum after them
// is still written (through the page cache, as a direct write must be whole blocks).
TEST(ChangelogWriterTest, RecordsEndingOnABlockBoundaryAreCompleted) {
  testing::ScratchDir dir;
  const std::string path = dir / "state/0/0/6.changelog";
  auto writer = ChangelogWriter::Open(path, StateFileKind::kChangelog, 6).ValueOrDie();
  // A 16-byte header, one record of 8 bytes of lengths, a 1-byte key and its value, and the
  // 8-byte count of records: 3 MiB in all before the checksum.
  const Record record{"k", std::string((3 << 20) - 16 - 8 - 1 - 8, 'v')};
  ASSERT_TRUE(Append(*writer, record).ok());
  auto bytes = writer->Commit();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(*bytes, (3 << 20) + 4);
  EXPECT_EQ(ReadCommitted(path, 6), std::vector<Record>{record});
}

}  // namespace
}  // namespace sluice::state
