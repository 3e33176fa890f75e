// Waits, once the tests are done, for every task of the thread pools to end before the test
// binary exits: a task still running then could run into the statics exit destroys (see
// WaitForPoolsIdle; the tracing context's storage, which a task's end uses, outlives the
// pools by itself).
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
