// PySpark's reader and writer builders keep their settings in Python; these run them in one
// call each, applying the settings to the C++ builders of src/sluice/api.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>

#include "sluice/api/dataframe.h"
#include "sluice/api/session.h"

namespace sluice::python {

namespace nb = nanobind;

using OptionMap = std::map<std::string, std::string>;

/// `df` when it has no analysis error; raises it otherwise.
DataFrame Checked(DataFrame df);

/// spark.read.format(format).options(options).schema(schema).load(path): `schema` is None, a
/// DDL string or an object with __arrow_c_schema__.
DataFrame ReadLoad(const SparkSession& session, const std::string& format,
                   const OptionMap& options, nb::handle schema,
                   const std::optional<std::string>& path);
/// spark.read.options(options).table(name).
DataFrame ReadTable(const SparkSession& session, const OptionMap& options,
                    const std::string& name);
/// spark.readStream...load(path), as ReadLoad.
DataFrame ReadStreamLoad(const SparkSession& session, const std::string& format,
                         const OptionMap& options, nb::handle schema,
                         const std::optional<std::string>& path);
/// spark.readStream.options(options).table(name).
DataFrame ReadStreamTable(const SparkSession& session, const OptionMap& options,
                          const std::string& name);

/// df.write.format(format).mode(mode).options(options).partitionBy(...).save(path).
void WriteSave(const DataFrame& df, const std::string& format, const std::string& mode,
               const OptionMap& options, const std::vector<std::string>& partition_by,
               const std::optional<std::string>& path);
/// df.write...saveAsTable(name); format None keeps the default.
void WriteSaveAsTable(const DataFrame& df, const std::optional<std::string>& format,
                      const std::string& mode, const OptionMap& options,
                      const std::vector<std::string>& partition_by, const std::string& name);

}  // namespace sluice::python
