#include "sluice/api/show_format.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <arrow/array.h>
#include <arrow/chunked_array.h>
#include <arrow/table.h>

#include "sluice/expr/bound_expression.h"
#include "sluice/expr/cast.h"

namespace sluice {

namespace {

// Decodes the code points of UTF-8 text (invalid bytes count as one code point each).
std::vector<uint32_t> CodePoints(const std::string& text) {
  std::vector<uint32_t> points;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    int length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + length > text.size()) length = 1;
    uint32_t point = length == 1 ? c : c & (0xFF >> (length + 1));
    for (int k = 1; k < length; ++k) point = (point << 6) | (text[i + k] & 0x3F);
    points.push_back(point);
    i += length;
  }
  return points;
}

// The number of UTF-8 bytes of the first `count` code points of `text`.
size_t PrefixBytes(const std::string& text, size_t count) {
  size_t i = 0;
  for (size_t seen = 0; i < text.size() && seen < count; ++seen) {
    const auto c = static_cast<unsigned char>(text[i]);
    i += c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  }
  return std::min(i, text.size());
}

bool IsFullWidth(uint32_t c) {
  return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) ||
         (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
         (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD);
}

// Display width: full-width characters take two columns, as Spark's stringHalfWidth counts.
size_t DisplayWidth(const std::string& text) {
  size_t width = 0;
  for (uint32_t c : CodePoints(text)) width += IsFullWidth(c) ? 2 : 1;
  return width;
}

// Spark escapes control characters in cells so one row stays one line.
std::string EscapeMetaCharacters(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    switch (c) {
      case '\n': escaped += "\\n"; break;
      case '\r': escaped += "\\r"; break;
      case '\t': escaped += "\\t"; break;
      case '\f': escaped += "\\f"; break;
      case '\b': escaped += "\\b"; break;
      case '\v': escaped += "\\v"; break;
      case '\a': escaped += "\\a"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

std::string Cell(const std::string& value, int truncate_to) {
  std::string text = EscapeMetaCharacters(value);
  const size_t length = CodePoints(text).size();
  if (truncate_to > 0 && length > static_cast<size_t>(truncate_to)) {
    if (truncate_to < 4) return text.substr(0, PrefixBytes(text, truncate_to));
    return text.substr(0, PrefixBytes(text, truncate_to - 3)) + "...";
  }
  return text;
}

std::string Pad(const std::string& text, size_t width, bool left) {
  const size_t shown = DisplayWidth(text);
  if (shown >= width) return text;
  std::string padding(width - shown, ' ');
  return left ? padding + text : text + padding;
}

}  // namespace

arrow::Result<std::string> FormatShow(const arrow::Table& rows, int n, int truncate_to,
                                      bool vertical) {
  const int64_t shown = std::min<int64_t>(std::max(n, 0), rows.num_rows());
  const bool has_more = rows.num_rows() > shown;
  const int num_columns = rows.num_columns();
  std::vector<std::string> header;
  for (const auto& field : rows.schema()->fields()) header.push_back(Cell(field->name(), truncate_to));

  std::vector<std::vector<std::string>> cells(shown, std::vector<std::string>(num_columns));
  for (int c = 0; c < num_columns; ++c) {
    int64_t row = 0;
    for (const auto& chunk : rows.column(c)->chunks()) {
      const auto& strings = static_cast<const arrow::StringArray&>(*chunk);
      for (int64_t i = 0; i < strings.length() && row < shown; ++i, ++row) {
        cells[row][c] =
            strings.IsNull(i) ? "NULL" : Cell(std::string(strings.GetView(i)), truncate_to);
      }
    }
  }

  std::string out;
  if (!vertical) {
    std::vector<size_t> widths(num_columns, 3);
    for (int c = 0; c < num_columns; ++c) {
      widths[c] = std::max(widths[c], DisplayWidth(header[c]));
      for (const auto& row : cells) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    }
    std::string separator = "+";
    for (size_t width : widths) separator += std::string(width, '-') + "+";
    separator += "\n";
    const bool right_align = truncate_to > 0;
    auto append_row = [&](const std::vector<std::string>& values) {
      out += "|";
      for (int c = 0; c < num_columns; ++c) out += Pad(values[c], widths[c], right_align) + "|";
      out += "\n";
    };
    out += separator;
    append_row(header);
    out += separator;
    for (const auto& row : cells) append_row(row);
    out += separator;
  } else {
    size_t name_width = 0, data_width = 0;
    for (const auto& name : header) name_width = std::max(name_width, DisplayWidth(name));
    for (const auto& row : cells) {
      for (const auto& cell : row) data_width = std::max(data_width, DisplayWidth(cell));
    }
    for (int64_t r = 0; r < shown; ++r) {
      std::string record = "-RECORD " + std::to_string(r);
      const size_t total = name_width + data_width + 5;
      if (record.size() < total) record += std::string(total - record.size(), '-');
      out += record + "\n";
      for (int c = 0; c < num_columns; ++c) {
        // Appended piece by piece: GCC 12 warns (falsely) on " " + std::string&& here.
        out += ' ';
        out += Pad(header[c], name_width, false);
        out += " | ";
        out += Pad(cells[r][c], data_width, false);
        out += " \n";
      }
    }
    if (shown == 0) out += "(0 rows)\n";
  }
  if (has_more) {
    out += "only showing top " + std::to_string(shown) + (shown == 1 ? " row" : " rows") + "\n";
  }
  return out;
}

arrow::Result<std::shared_ptr<arrow::Table>> RenderShowStrings(
    const arrow::Schema& schema, const arrow::RecordBatchVector& batches,
    const SessionConfig& config) {
  std::vector<expr::BoundExprPtr> casts;
  std::vector<std::shared_ptr<arrow::Field>> fields;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const auto& field = schema.field(i);
    auto column = std::make_shared<expr::BoundColumn>(i, field->type(), field->nullable(),
                                                      field->name());
    ARROW_ASSIGN_OR_RAISE(auto cast, expr::MakeCast(column, arrow::utf8(),
                                                    expr::CastKind::kPretty, config));
    casts.push_back(std::move(cast));
    fields.push_back(arrow::field(field->name(), arrow::utf8()));
  }
  expr::EvalContext context;
  context.config = &config;
  std::vector<arrow::ArrayVector> chunks(casts.size());
  for (const auto& batch : batches) {
    for (size_t c = 0; c < casts.size(); ++c) {
      ARROW_ASSIGN_OR_RAISE(auto strings, expr::EvaluateToArray(*casts[c], *batch, context));
      chunks[c].push_back(std::move(strings));
    }
  }
  std::vector<std::shared_ptr<arrow::ChunkedArray>> columns;
  for (auto& column_chunks : chunks) {
    columns.push_back(
        std::make_shared<arrow::ChunkedArray>(std::move(column_chunks), arrow::utf8()));
  }
  return arrow::Table::Make(arrow::schema(std::move(fields)), std::move(columns));
}

}  // namespace sluice
