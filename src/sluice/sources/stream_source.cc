#include "sluice/sources/stream_source.h"

#include "sluice/common/errors.h"

namespace sluice::sources {

arrow::Status StreamingQueryMustUseWriteStream(const std::string& source_description) {
  return SparkError("STREAMING_QUERY_REQUIRES_WRITE_STREAM",
                    "Queries with streaming sources must be executed with "
                    "writeStream.start();\n" +
                        source_description);
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> StreamSourceProvider::Open() const {
  return StreamingQueryMustUseWriteStream(Describe());
}

}  // namespace sluice::sources
