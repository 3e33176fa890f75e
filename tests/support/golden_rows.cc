#include "support/golden_rows.h"

#include <vector>

#include "sluice/types/spark_type_names.h"
#include "support/canonical_values.h"

namespace sluice::testing {

namespace {

std::string Text(simdjson::dom::element value) {
  std::string_view text;
  if (value.get(text) == simdjson::SUCCESS) return std::string(text);
  return simdjson::minify(value);
}

}  // namespace

std::string CompareRows(const arrow::Table& table, simdjson::dom::array expected) {
  // The first differences say what went wrong; thousands would bury them.
  constexpr int kShown = 20;
  int differences = 0;
  std::string problems;
  auto note = [&](const std::string& line) {
    if (differences++ < kShown) problems += line;
  };
  auto combined = table.CombineChunks().ValueOrDie();
  std::vector<bool> used(expected.size(), false);
  for (int64_t r = 0; r < combined->num_rows(); ++r) {
    bool found = false;
    size_t index = 0;
    for (auto row : expected) {
      bool same = !used[index];
      for (int k = 0; same && k < combined->num_columns(); ++k) {
        same = MatchesCanonical(*combined->column(k)->chunk(0), r, row.at(k).value(), nullptr);
      }
      if (same) {
        used[index] = found = true;
        break;
      }
      ++index;
    }
    if (!found) {
      std::string text = "[";
      for (int k = 0; k < combined->num_columns(); ++k) {
        if (k > 0) text += ",";
        text += CanonicalText(*combined->column(k)->chunk(0), r);
      }
      note("  unexpected row " + text + "]\n");
    }
  }
  size_t index = 0;
  for (auto row : expected) {
    if (!used[index++]) note("  missing row " + simdjson::minify(row) + "\n");
  }
  if (differences > kShown) {
    problems += "  ... " + std::to_string(differences - kShown) + " more differences\n";
  }
  return problems;
}

std::string CompareColumns(const arrow::Schema& schema, simdjson::dom::array expected) {
  std::string problems;
  if (static_cast<int>(expected.size()) != schema.num_fields()) {
    return "expected " + std::to_string(expected.size()) + " columns, got " + schema.ToString() +
           "\n";
  }
  int c = 0;
  for (auto column : expected) {
    const auto& field = schema.field(c++);
    const std::string name = Text(column["name"]), type = Text(column["type"]);
    const std::string actual_type = types::SimpleString(*field->type());
    if (field->name() != name || actual_type != type) {
      problems += "column " + std::to_string(c - 1) + ": expected `" + name + "` " + type +
                  ", got `" + field->name() + "` " + actual_type + "\n";
    }
  }
  return problems;
}

}  // namespace sluice::testing
