// How the file source log and the file sink manifest name a local file: the URI Spark records
// (Hadoop's Path.toUri of the file's status), so that Spark and Sluice read each other's
// checkpoints and sink folders.
#pragma once

#include <string>
#include <string_view>

#include <arrow/result.h>

namespace sluice::checkpoint {

/// "file://" + the absolute `local_path`, with the characters a URI path cannot hold
/// percent-encoded as java.net.URI quotes them (space, %, #, ?, [, ], ^, `, {, |, }, ", <, >,
/// control characters); letters, digits, "-_.!~*'()", ":@&=+$,;/" and non-ASCII bytes stay.
std::string FileUri(std::string_view local_path);

/// The path part of a URI for `path`: the characters FileUri quotes percent-encoded, nothing
/// added (Delta logs hold data file paths relative to the table in this form).
std::string EncodeUriPath(std::string_view path);

/// `path` with its percent escapes decoded; Invalid naming it for a malformed escape.
arrow::Result<std::string> DecodeUriPath(std::string_view path);

/// The local path of a logged URI ("file:///a%20b" or "file:/a%20b" -> "/a b"). Fails naming
/// the URI when it is not a local file URI or holds a malformed escape.
arrow::Result<std::string> LocalPathOfFileUri(std::string_view uri);

}  // namespace sluice::checkpoint
