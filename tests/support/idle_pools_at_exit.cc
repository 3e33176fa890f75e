// Waits, once the tests are done, for every task of the thread pools to end before the test
// binary exits. A pool thread that has run a task still ends the task's tracing scope in
// Arrow's wrapper after the task returned (after a read-ahead's Stop(), say); if that happens
// while exit destroys the tracing context's storage, created lazily and so destroyed early,
// the binary crashes after its tests passed (one run in a few dozen on a loaded machine).
#include <gtest/gtest.h>

#include "sluice/common/read_ahead.h"

namespace sluice::testing {
namespace {

class IdlePoolsAtExit final : public ::testing::Environment {
 public:
  void TearDown() override { WaitForPoolsIdle(); }
};

[[maybe_unused]] const auto* const kRegistered =
    ::testing::AddGlobalTestEnvironment(new IdlePoolsAtExit);

}  // namespace
}  // namespace sluice::testing
