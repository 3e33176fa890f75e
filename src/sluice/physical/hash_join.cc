#include "sluice/physical/hash_join.h"

#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/table.h>

#include "sluice/expr/key_grouper.h"

namespace sluice::physical {

namespace {

namespace cp = arrow::compute;
using plan::JoinType;

// Candidate pairs are produced for this many left rows at a time, bounding memory for joins
// with many matches per row.
constexpr int64_t kLeftSlice = 4096;

class HashJoinStream final : public BatchStream {
 public:
  HashJoinStream(const plan::Join& join, BatchStreamPtr left, BatchStreamPtr right,
                 const ExecContext& context)
      : type_(join.join_type()),
        left_keys_(join.left_keys()),
        right_keys_(join.right_keys()),
        null_safe_(join.null_safe()),
        residual_(join.residual()),
        schema_(expr::ToSchema(join.output())),
        left_(std::move(left)),
        right_(std::move(right)),
        context_(context) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (!built_) ARROW_RETURN_NOT_OK(Build());
    while (!left_done_) {
      if (current_ == nullptr || offset_ >= current_->num_rows()) {
        ARROW_ASSIGN_OR_RAISE(current_, left_->Next());
        offset_ = 0;
        if (current_ == nullptr) {
          left_done_ = true;
          break;
        }
        if (current_->num_rows() == 0) continue;
        ARROW_RETURN_NOT_OK(LookupKeys());
      }
      const int64_t begin = offset_;
      const int64_t end = std::min(current_->num_rows(), begin + kLeftSlice);
      offset_ = end;
      ARROW_ASSIGN_OR_RAISE(auto out, JoinSlice(begin, end));
      if (out != nullptr && out->num_rows() > 0) return out;
    }
    if ((type_ == JoinType::kRightOuter || type_ == JoinType::kFullOuter) && !right_emitted_) {
      right_emitted_ = true;
      std::vector<int64_t> rows;
      for (int64_t r = 0; r < build_->num_rows(); ++r) {
        if (!matched_right_[r]) rows.push_back(r);
      }
      if (!rows.empty()) {
        std::vector<int64_t> none(rows.size(), -1);
        return Assemble(nullptr, none, rows);
      }
    }
    return nullptr;
  }

 private:
  arrow::Status Build() {
    built_ = true;
    ARROW_ASSIGN_OR_RAISE(auto table, CollectTable(*right_));
    ARROW_ASSIGN_OR_RAISE(build_, table->CombineChunksToBatch(context_.eval.pool));
    const int64_t rows = build_->num_rows();
    matched_right_.assign(rows, 0);
    if (left_keys_.empty()) return arrow::Status::OK();
    std::vector<std::shared_ptr<arrow::DataType>> types;
    arrow::ArrayVector keys;
    for (const auto& key : right_keys_) {
      types.push_back(key->type());
      ARROW_ASSIGN_OR_RAISE(auto array, expr::EvaluateToArray(*key, *build_, context_.eval));
      keys.push_back(std::move(array));
    }
    ARROW_ASSIGN_OR_RAISE(table_, expr::KeyGrouper::Make(types, context_.eval.pool));
    std::vector<uint32_t> ids;
    ARROW_RETURN_NOT_OK(table_->Consume(keys, rows, &ids));
    // Rows with a null key under `=` never match: leave them out of the buckets.
    const int64_t groups = table_->num_groups();
    bucket_start_.assign(groups + 1, 0);
    std::vector<bool> usable(rows, true);
    for (int64_t r = 0; r < rows; ++r) {
      for (size_t k = 0; k < keys.size(); ++k) {
        usable[r] = usable[r] && (null_safe_[k] || keys[k]->IsValid(r));
      }
      if (usable[r]) ++bucket_start_[ids[r] + 1];
    }
    for (int64_t g = 0; g < groups; ++g) bucket_start_[g + 1] += bucket_start_[g];
    bucket_rows_.resize(bucket_start_[groups]);
    std::vector<int64_t> cursor(bucket_start_.begin(), bucket_start_.end() - 1);
    for (int64_t r = 0; r < rows; ++r) {
      if (usable[r]) bucket_rows_[cursor[ids[r]]++] = r;
    }
    return arrow::Status::OK();
  }

  arrow::Status LookupKeys() {
    if (left_keys_.empty()) return arrow::Status::OK();
    arrow::ArrayVector keys;
    for (const auto& key : left_keys_) {
      ARROW_ASSIGN_OR_RAISE(auto array, expr::EvaluateToArray(*key, *current_, context_.eval));
      keys.push_back(std::move(array));
    }
    const bool any_null_safe = std::find(null_safe_.begin(), null_safe_.end(), true) != null_safe_.end();
    ARROW_RETURN_NOT_OK(table_->Lookup(keys, current_->num_rows(), any_null_safe, &probe_));
    if (any_null_safe) {
      // A null under `=` still never matches.
      for (size_t k = 0; k < keys.size(); ++k) {
        if (null_safe_[k] || keys[k]->null_count() == 0) continue;
        for (int64_t i = 0; i < current_->num_rows(); ++i) {
          if (keys[k]->IsNull(i)) probe_[i] = -1;
        }
      }
    }
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> JoinSlice(int64_t begin, int64_t end) {
    std::vector<int64_t> left_rows, right_rows;
    for (int64_t i = begin; i < end; ++i) {
      if (left_keys_.empty()) {
        for (int64_t r = 0; r < build_->num_rows(); ++r) {
          left_rows.push_back(i);
          right_rows.push_back(r);
        }
        continue;
      }
      const int32_t g = probe_[i];
      if (g < 0) continue;
      for (int64_t k = bucket_start_[g]; k < bucket_start_[g + 1]; ++k) {
        left_rows.push_back(i);
        right_rows.push_back(bucket_rows_[k]);
      }
    }
    if (residual_ && !left_rows.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto pairs, Assemble(current_, left_rows, right_rows, true));
      ARROW_ASSIGN_OR_RAISE(auto mask, residual_->Evaluate(*pairs, context_.eval));
      std::vector<int64_t> kept_left, kept_right;
      if (mask.is_scalar()) {
        const auto& keep = mask.scalar_as<arrow::BooleanScalar>();
        if (keep.is_valid && keep.value) {
          kept_left = left_rows;
          kept_right = right_rows;
        }
      } else {
        // Held by name: make_array() returns the only reference to the array.
        std::shared_ptr<arrow::Array> array = mask.make_array();
        const auto& flags = static_cast<const arrow::BooleanArray&>(*array);
        for (size_t k = 0; k < left_rows.size(); ++k) {
          if (flags.IsValid(k) && flags.Value(k)) {
            kept_left.push_back(left_rows[k]);
            kept_right.push_back(right_rows[k]);
          }
        }
      }
      left_rows = std::move(kept_left);
      right_rows = std::move(kept_right);
    }
    for (int64_t r : right_rows) matched_right_[r] = 1;
    switch (type_) {
      case JoinType::kInner:
      case JoinType::kCross:
      case JoinType::kRightOuter:
        return Assemble(current_, left_rows, right_rows);
      case JoinType::kLeftSemi:
      case JoinType::kLeftAnti: {
        std::vector<uint8_t> matched(end - begin, 0);
        for (int64_t i : left_rows) matched[i - begin] = 1;
        std::vector<int64_t> rows;
        const bool want = type_ == JoinType::kLeftSemi;
        for (int64_t i = begin; i < end; ++i) {
          if (static_cast<bool>(matched[i - begin]) == want) rows.push_back(i);
        }
        return Assemble(current_, rows, {});
      }
      case JoinType::kLeftOuter:
      case JoinType::kFullOuter: {
        std::vector<uint8_t> matched(end - begin, 0);
        for (int64_t i : left_rows) matched[i - begin] = 1;
        for (int64_t i = begin; i < end; ++i) {
          if (!matched[i - begin]) {
            left_rows.push_back(i);
            right_rows.push_back(-1);
          }
        }
        return Assemble(current_, left_rows, right_rows);
      }
    }
    return nullptr;
  }

  static arrow::Result<std::shared_ptr<arrow::Array>> Indices(const std::vector<int64_t>& rows,
                                                              arrow::MemoryPool* pool) {
    arrow::Int64Builder builder(pool);
    ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(rows.size())));
    for (int64_t row : rows) {
      if (row < 0) {
        builder.UnsafeAppendNull();
      } else {
        builder.UnsafeAppend(row);
      }
    }
    return builder.Finish();
  }

  // The rows `left_rows` of `left` (nulls where -1 or `left` is null) next to `right_rows` of
  // the build side; only the left columns for semi and anti joins unless `both` is set (pairs
  // for the residual condition).
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Assemble(
      const std::shared_ptr<arrow::RecordBatch>& left, const std::vector<int64_t>& left_rows,
      const std::vector<int64_t>& right_rows, bool both = false) {
    arrow::MemoryPool* pool = context_.eval.pool;
    const int64_t n = static_cast<int64_t>(left_rows.size());
    arrow::ArrayVector columns;
    arrow::FieldVector fields;
    ARROW_ASSIGN_OR_RAISE(auto left_indices, Indices(left_rows, pool));
    const auto& left_schema = left_->schema();
    for (int c = 0; c < left_schema->num_fields(); ++c) {
      if (left == nullptr) {
        ARROW_ASSIGN_OR_RAISE(auto nulls,
                              arrow::MakeArrayOfNull(left_schema->field(c)->type(), n, pool));
        columns.push_back(std::move(nulls));
      } else {
        ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(*left->column(c), *left_indices));
        columns.push_back(std::move(taken));
      }
    }
    const bool with_right =
        both || (type_ != JoinType::kLeftSemi && type_ != JoinType::kLeftAnti);
    if (with_right) {
      ARROW_ASSIGN_OR_RAISE(auto right_indices, Indices(right_rows, pool));
      for (int c = 0; c < build_->num_columns(); ++c) {
        ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(*build_->column(c), *right_indices));
        columns.push_back(std::move(taken));
      }
    }
    if (both) {
      for (int c = 0; c < left_schema->num_fields(); ++c) fields.push_back(left_schema->field(c));
      for (int c = 0; c < build_->num_columns(); ++c) fields.push_back(build_->schema()->field(c));
      return arrow::RecordBatch::Make(arrow::schema(fields), n, std::move(columns));
    }
    return arrow::RecordBatch::Make(schema_, n, std::move(columns));
  }

  JoinType type_;
  std::vector<expr::BoundExprPtr> left_keys_, right_keys_;
  std::vector<bool> null_safe_;
  expr::BoundExprPtr residual_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchStreamPtr left_, right_;
  const ExecContext& context_;

  bool built_ = false;
  std::shared_ptr<arrow::RecordBatch> build_;
  std::unique_ptr<expr::KeyGrouper> table_;
  std::vector<int64_t> bucket_start_, bucket_rows_;
  std::vector<uint8_t> matched_right_;
  bool right_emitted_ = false;

  bool left_done_ = false;
  std::shared_ptr<arrow::RecordBatch> current_;
  int64_t offset_ = 0;
  std::vector<int32_t> probe_;
};

}  // namespace

BatchStreamPtr MakeHashJoin(const plan::Join& join, BatchStreamPtr left, BatchStreamPtr right,
                            const ExecContext& context) {
  return std::make_unique<HashJoinStream>(join, std::move(left), std::move(right), context);
}

}  // namespace sluice::physical
