#include "dataframe_builders.h"

#include <nanobind/stl/string.h>

#include "arrow_interop.h"
#include "binding.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"

namespace sluice::python {

namespace {

template <typename Reader>
Reader& Configure(Reader& reader, const std::string& format, const OptionMap& options,
                  nb::handle schema) {
  if (!format.empty()) reader.format(format);
  reader.options(options);
  if (schema.is_none()) return reader;
  if (nb::isinstance<nb::str>(schema)) return reader.schema(nb::cast<std::string>(schema));
  return reader.schema(ImportSchema(schema));
}

}  // namespace

DataFrame ReadLoad(const SparkSession& session, const std::string& format,
                   const OptionMap& options, nb::handle schema,
                   const std::optional<std::string>& path) {
  DataFrameReader reader = session.read();
  Configure(reader, format, options, schema);
  nb::gil_scoped_release release;
  return Checked(path ? reader.load(*path) : reader.load());
}

DataFrame ReadTable(const SparkSession& session, const OptionMap& options,
                    const std::string& name) {
  DataFrameReader reader = session.read();
  reader.options(options);
  nb::gil_scoped_release release;
  return Checked(reader.table(name));
}

DataFrame ReadStreamLoad(const SparkSession& session, const std::string& format,
                         const OptionMap& options, nb::handle schema,
                         const std::optional<std::string>& path) {
  DataStreamReader reader = session.readStream();
  Configure(reader, format, options, schema);
  nb::gil_scoped_release release;
  return Checked(path ? reader.load(*path) : reader.load());
}

DataFrame ReadStreamTable(const SparkSession& session, const OptionMap& options,
                          const std::string& name) {
  DataStreamReader reader = session.readStream();
  reader.options(options);
  nb::gil_scoped_release release;
  return Checked(reader.table(name));
}

void WriteSave(const DataFrame& df, const std::string& format, const std::string& mode,
               const OptionMap& options, const std::vector<std::string>& partition_by,
               const std::optional<std::string>& path) {
  DataFrameWriter writer = df.write();
  if (!format.empty()) writer.format(format);
  writer.mode(mode).options(options);
  if (!partition_by.empty()) writer.partitionBy(partition_by);
  ThrowIfError(path ? writer.save(*path) : writer.save());
}

void WriteSaveAsTable(const DataFrame& df, const std::optional<std::string>& format,
                      const std::string& mode, const OptionMap& options,
                      const std::vector<std::string>& partition_by, const std::string& name) {
  DataFrameWriter writer = df.write();
  if (format) writer.format(*format);
  writer.mode(mode).options(options);
  if (!partition_by.empty()) writer.partitionBy(partition_by);
  ThrowIfError(writer.saveAsTable(name));
}

}  // namespace sluice::python
