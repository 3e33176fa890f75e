#include "sluice/delta/delta_merge.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>
#include <unordered_set>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/record_batch.h>
#include <arrow/table.h>
#include <arrow/type.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_protocol.h"
#include "sluice/delta/merge_binding.h"
#include "sluice/delta/merge_commit_info.h"
#include "sluice/delta/merge_file_skipping.h"
#include "sluice/delta/merge_target_scan.h"
#include "sluice/delta/parallel_tasks.h"
#include "sluice/expr/binder.h"
#include "sluice/physical/planner.h"
#include "sluice/plan/join.h"
#include "sluice/plan/project.h"
#include "sluice/plan/relation.h"
#include "sluice/plan/subquery_alias.h"

namespace sluice::delta {

namespace {

using Clock = std::chrono::steady_clock;
using expr::ExprPtr;

/// Each source row's number (from 0; never null, so that an outer join tells a missing source
/// side from nulls).
constexpr char kSourceMarker[] = "__delta_merge_source_row";
/// Per joined row, what happens to it: the index of the clause that applies (matched clauses
/// first, then not-matched ones), or kCopy / kDrop.
constexpr char kClauseColumn[] = "__delta_merge_clause";
constexpr int32_t kCopy = -1;
constexpr int32_t kDrop = -2;

int64_t MillisSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

ExprPtr RefTo(const expr::Attribute& attribute) {
  return std::make_shared<expr::ColumnRef>(std::vector<std::string>{attribute.name},
                                           attribute.id);
}
ExprPtr Call(const char* name, std::vector<ExprPtr> args) {
  return expr::CallFunction(name, std::move(args));
}
ExprPtr IntLiteral(int32_t value) { return expr::Lit(arrow::MakeScalar(value)); }
ExprPtr Named(ExprPtr value, const std::string& name) {
  return std::make_shared<expr::Alias>(std::move(value), name);
}
ExprPtr And(ExprPtr a, ExprPtr b) { return Call("and", {std::move(a), std::move(b)}); }

const expr::Attribute* FindByName(const expr::AttributeList& attributes, const char* name) {
  for (const auto& attribute : attributes) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

/// A clause ready to plan: its condition and, per table column, its value (null: unchanged
/// for an update, null for an insert), cast to the column's type.
struct ResolvedClause {
  MergeClause::Action action;
  ExprPtr condition;
  std::vector<ExprPtr> values;
};

/// What the scan for matched rows found.
struct Matches {
  /// Per candidate file, the positions of its rows that a matched clause may change (sorted,
  /// distinct); empty for a file no source row matched.
  std::vector<std::vector<int64_t>> rows;
  /// Per candidate file, the source rows matched with those (sorted, distinct).
  std::vector<std::vector<int64_t>> sources;
  /// Per source row, whether it matched a target row.
  std::vector<uint8_t> source_matched;
};

/// The output of one rewrite: the files it wrote (finished, not yet committed) and the rows
/// it updated, deleted, inserted and copied.
struct RewriteOutput {
  std::unique_ptr<DataFileWriter> writer;
  std::vector<AddFile> added;
  int64_t rows_updated = 0;
  int64_t rows_deleted = 0;
  int64_t rows_inserted = 0;
  int64_t rows_copied = 0;
};


/// One run of a MERGE: the table version it reads, the source rows, and what it found.
class MergeRun {
 public:
  MergeRun(const DeltaLog& log, const MergeSpec& spec, const MergeContext& context)
      : log_(log), spec_(spec), context_(context) {}

  arrow::Result<MergeResult> Run();

 private:
  /// Reads the source once into memory and numbers its rows.
  arrow::Status ReadSource();
  /// A plan of `rows` (source_rows_ or some of them) with the source's attributes.
  plan::PlanPtr SourceOf(std::shared_ptr<arrow::Table> rows) const;
  /// The target rows of `files` (all columns, or those of `columns`) under the target alias.
  arrow::Result<plan::PlanPtr> TargetPlan(std::vector<AddFile> files,
                                          const std::vector<std::string>& columns,
                                          bool with_row_positions) const;
  /// The rows of `target` (a MergeTargetScan's columns) as a relation under the target alias.
  plan::PlanPtr Aliased(std::shared_ptr<const plan::DataSource> target) const;
  /// Checks the condition and clauses against the table and the source, and resolves them.
  arrow::Status Resolve();
  arrow::Result<ResolvedClause> ResolveClause(const MergeClause& clause, bool matched);
  /// The files the merge must read: those whose statistics leave room for a source key.
  std::vector<AddFile> Candidates();
  /// The rows of the candidate files that a matched clause may change, and the source rows
  /// that matched; fails on a target row matched by two source rows where that is ambiguous.
  /// The candidates are scanned in parallel, a share per core.
  arrow::Result<Matches> FindMatches(const std::vector<AddFile>& candidates);
  /// FindMatches over candidates [begin, end), into matches->rows[begin, end),
  /// matches->sources[begin, end) and `source_matched`. A pair counts for the ambiguity
  /// check and for `source_matched` when the merge condition holds; its target row is
  /// rewritten when `applies` (nullptr: always) holds too.
  arrow::Status MatchShare(const std::vector<AddFile>& candidates, size_t begin, size_t end,
                           const ExprPtr& applies, bool multiple_allowed, Matches* matches,
                           std::vector<uint8_t>* source_matched) const;
  /// The plan joining `target` with `source` and applying the clauses: the table's columns,
  /// then each row's file (null for an insert) and its clause code.
  arrow::Result<plan::PlanPtr> PlanChanges(const plan::PlanPtr& target,
                                           const plan::PlanPtr& source, plan::JoinType join,
                                           bool insert_only) const;
  /// Executes `rows` (a PlanChanges plan) and writes the rows that remain with out's writer.
  arrow::Status WriteChanges(const plan::PlanPtr& rows, RewriteOutput* out) const;
  /// Writes the not-matched clauses' rows for the source rows in `unmatched` into new files.
  arrow::Status WriteInserts(std::shared_ptr<arrow::Table> unmatched, RewriteOutput* out) const;
  /// Rewrites one touched file into new files of its own, which keeps the table's layout (a
  /// later merge of clustered keys again rewrites few files). The rows at `positions` (sorted)
  /// go through the clauses, joined with the source rows at `sources` (those they matched),
  /// and are written last; the others are written as they were read, without joining or
  /// evaluating anything: most rows of a rewritten file are copies.
  arrow::Status RewriteFile(const AddFile& file, const std::vector<int64_t>& positions,
                            const std::vector<int64_t>& sources, RewriteOutput* out) const;
  arrow::Result<std::unique_ptr<DataFileWriter>> MakeWriter() const;
  /// Runs every task, in parallel, each with its own output in rewrites_ (in the tasks'
  /// order); the files they wrote are finished (durable, not committed).
  arrow::Status WriteAll(const std::vector<std::function<arrow::Status(RewriteOutput*)>>& tasks);
  arrow::Result<MergeResult> Commit(const std::vector<AddFile>& candidates,
                                    const std::vector<AddFile>& removed);
  void AbandonRewrites();

  const DeltaLog& log_;
  const MergeSpec& spec_;
  const MergeContext& context_;
  Clock::time_point started_ = Clock::now();
  Snapshot snapshot_;
  /// The source rows as read, with kSourceMarker last.
  std::shared_ptr<arrow::Table> source_rows_;
  /// The source plan's attributes, then kSourceMarker's.
  expr::AttributeList source_attributes_;
  /// The plan of source_rows_.
  plan::PlanPtr source_;
  /// The target's columns with every file's columns, then the source's: the scope in which
  /// the condition and matched clauses resolve.
  expr::AttributeList joined_scope_;
  size_t target_columns_ = 0;
  expr::BoundExprPtr bound_condition_;
  std::vector<ResolvedClause> matched_;
  std::vector<ResolvedClause> not_matched_;
  /// Table columns the condition and the matched clauses' conditions read.
  std::vector<std::string> key_columns_;
  /// What each rewrite wrote, in the order their files are added.
  std::vector<RewriteOutput> rewrites_;
  MergeMetrics metrics_;
};

arrow::Status MergeRun::ReadSource() {
  if (spec_.source->is_streaming()) {
    return SparkError("DELTA_MERGE_SOURCE_IS_STREAMING",
                      "The source of a MERGE must be a batch DataFrame: inside a streaming "
                      "query, merge each micro-batch from foreachBatch.");
  }
  physical::ExecContext exec{context_.eval};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*spec_.source, exec));
  ARROW_ASSIGN_OR_RAISE(auto rows, physical::CollectTable(*stream));
  metrics_.source_rows = rows->num_rows();
  arrow::Int64Builder numbers;
  ARROW_RETURN_NOT_OK(numbers.Reserve(rows->num_rows()));
  for (int64_t i = 0; i < rows->num_rows(); ++i) numbers.UnsafeAppend(i);
  ARROW_ASSIGN_OR_RAISE(auto number_array, numbers.Finish());
  ARROW_ASSIGN_OR_RAISE(
      source_rows_,
      rows->AddColumn(rows->num_columns(), arrow::field(kSourceMarker, arrow::int64(), false),
                      std::make_shared<arrow::ChunkedArray>(std::move(number_array))));
  // The same attributes as the source plan, so its columns resolve as the caller wrote them
  // (qualified by the source's alias, or through the DataFrame they came from).
  source_attributes_ = spec_.source->output();
  source_attributes_.push_back(
      {kSourceMarker, arrow::int64(), /*nullable=*/false, context_.analysis.ids->Next(), {}});
  source_ = SourceOf(source_rows_);
  return arrow::Status::OK();
}

plan::PlanPtr MergeRun::SourceOf(std::shared_ptr<arrow::Table> rows) const {
  return std::make_shared<plan::Relation>(std::make_shared<plan::InMemorySource>(std::move(rows)),
                                          source_attributes_);
}

arrow::Result<plan::PlanPtr> MergeRun::TargetPlan(std::vector<AddFile> files,
                                                  const std::vector<std::string>& columns,
                                                  bool with_row_positions) const {
  ARROW_ASSIGN_OR_RAISE(auto scan,
                        MergeTargetScan::Make(log_.table_path(), snapshot_, std::move(files),
                                              columns, with_row_positions, context_.format));
  return Aliased(std::move(scan));
}

plan::PlanPtr MergeRun::Aliased(std::shared_ptr<const plan::DataSource> target) const {
  plan::PlanPtr plan = plan::Relation::Make(std::move(target), context_.analysis);
  if (!spec_.target_alias.empty()) plan = plan::SubqueryAlias::Make(plan, spec_.target_alias);
  return plan;
}

arrow::Result<ResolvedClause> MergeRun::ResolveClause(const MergeClause& clause, bool matched) {
  const std::string verb = clause.action == MergeClause::Action::kUpdate   ? "UPDATE"
                           : clause.action == MergeClause::Action::kDelete ? "DELETE"
                                                                           : "INSERT";
  // Insert clauses see only the source's columns.
  const expr::AttributeList& scope = matched ? joined_scope_ : source_->output();
  ResolvedClause resolved{clause.action, clause.condition, {}};
  if (clause.condition != nullptr) {
    ARROW_ASSIGN_OR_RAISE(auto bound,
                          BindIn(clause.condition, verb + " condition", scope, context_.analysis));
    if (!bound->type()->Equals(*arrow::boolean())) {
      return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                        "The " + verb + " condition of a MERGE must be a boolean: " +
                            clause.condition->ToString() + " is " + bound->type()->ToString() +
                            ".");
    }
  }
  if (clause.action == MergeClause::Action::kDelete) return resolved;
  const arrow::Schema& table = *snapshot_.schema;
  resolved.values.resize(static_cast<size_t>(table.num_fields()));
  std::vector<std::pair<std::string, ExprPtr>> assignments = clause.assignments;
  if (clause.all) {
    assignments.clear();
    for (const auto& field : table.fields()) {
      const expr::Attribute* found = nullptr;
      for (const auto& attribute : spec_.source->output()) {
        if (AsciiEqualsIgnoreCase(attribute.name, field->name())) found = &attribute;
      }
      if (found == nullptr) {
        return Unresolved(QuoteIdentifier(field->name()), verb + " clause",
                          spec_.source->output(), arrow::Status::OK());
      }
      assignments.emplace_back(field->name(), RefTo(*found));
    }
  }
  for (const auto& [column, value] : assignments) {
    // "t.value" names the target's column "value".
    std::string name = column;
    const std::string prefix = spec_.target_alias + ".";
    if (!spec_.target_alias.empty() && name.size() > prefix.size() &&
        AsciiEqualsIgnoreCase(name.substr(0, prefix.size()), prefix)) {
      name = name.substr(prefix.size());
    }
    int index = -1;
    for (int i = 0; i < table.num_fields(); ++i) {
      if (AsciiEqualsIgnoreCase(table.field(i)->name(), name)) index = i;
    }
    if (index < 0) {
      expr::AttributeList target(joined_scope_.begin(),
                                 joined_scope_.begin() + static_cast<long>(target_columns_));
      return Unresolved(QuoteIdentifier(column), verb + " clause", target, arrow::Status::OK());
    }
    ARROW_ASSIGN_OR_RAISE(auto bound, BindIn(value, verb + " clause", scope, context_.analysis));
    const auto& type = table.field(index)->type();
    resolved.values[static_cast<size_t>(index)] =
        bound->type()->Equals(*type) ? value : std::make_shared<expr::Cast>(value, type);
  }
  return resolved;
}

arrow::Status MergeRun::Resolve() {
  ARROW_ASSIGN_OR_RAISE(auto target, TargetPlan({}, {}, /*with_row_positions=*/false));
  target_columns_ = static_cast<size_t>(snapshot_.schema->num_fields());
  joined_scope_ = target->output();
  for (const auto& attribute : source_->output()) joined_scope_.push_back(attribute);
  ARROW_ASSIGN_OR_RAISE(bound_condition_, BindIn(spec_.condition, "search condition",
                                                 joined_scope_, context_.analysis));
  std::set<int> read;
  CollectColumns(*bound_condition_, &read);
  for (const auto& clause : spec_.matched) {
    ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveClause(clause, /*matched=*/true));
    if (resolved.condition != nullptr) {
      // The search for matches evaluates the clauses' conditions too (FindMatches).
      ARROW_ASSIGN_OR_RAISE(auto bound, BindIn(resolved.condition, "condition", joined_scope_,
                                               context_.analysis));
      CollectColumns(*bound, &read);
    }
    matched_.push_back(std::move(resolved));
  }
  for (const auto& clause : spec_.not_matched) {
    ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveClause(clause, /*matched=*/false));
    not_matched_.push_back(std::move(resolved));
  }
  for (int index : read) {
    if (static_cast<size_t>(index) < target_columns_) {
      key_columns_.push_back(joined_scope_[static_cast<size_t>(index)].name);
    }
  }
  return arrow::Status::OK();
}

std::vector<AddFile> MergeRun::Candidates() {
  std::vector<ExprPtr> conjuncts;
  Conjuncts(spec_.condition, &conjuncts);
  const size_t source_start = joined_scope_.size() - source_->output().size();
  std::vector<MergeKey> keys;
  for (const auto& conjunct : conjuncts) {
    if (conjunct->kind() != expr::ExprKind::kCall ||
        static_cast<const expr::Call&>(*conjunct).name() != "=" ||
        conjunct->children().size() != 2) {
      continue;
    }
    int target = -1;
    int source = -1;
    for (const auto& side : conjunct->children()) {
      auto bound = BindIn(side, "search condition", joined_scope_, context_.analysis);
      if (!bound.ok() || (*bound)->kind() != expr::BoundKind::kColumn) break;
      const auto& column = static_cast<const expr::BoundColumn&>(**bound);
      const auto index = static_cast<size_t>(column.index());
      if (index < target_columns_) target = static_cast<int>(index);
      // The source's own columns (not the marker) are the materialized table's columns.
      if (index >= source_start && index - source_start < spec_.source->output().size()) {
        source = static_cast<int>(index - source_start);
      }
    }
    if (target < 0 || source < 0) continue;
    const auto& target_type = *joined_scope_[static_cast<size_t>(target)].type;
    const auto& source_values = source_rows_->column(source);
    const auto& source_type = *source_values->type();
    const bool integers = arrow::is_integer(target_type.id()) &&
                          arrow::is_integer(source_type.id());
    const bool strings = target_type.id() == arrow::Type::STRING &&
                         source_type.id() == arrow::Type::STRING;
    if (!integers && !strings) continue;
    keys.push_back({joined_scope_[static_cast<size_t>(target)].name, source_values});
  }
  std::vector<bool> keep =
      FilesThatMayMatch(snapshot_.files, snapshot_.metadata.partition_columns, keys);
  std::vector<AddFile> candidates;
  for (size_t f = 0; f < snapshot_.files.size(); ++f) {
    if (keep[f]) candidates.push_back(snapshot_.files[f]);
  }
  metrics_.target_files_before_skipping = static_cast<int64_t>(snapshot_.files.size());
  metrics_.target_files_after_skipping = static_cast<int64_t>(candidates.size());
  return candidates;
}

arrow::Result<Matches> MergeRun::FindMatches(const std::vector<AddFile>& candidates) {
  // Only rows some matched clause would change are rewritten; but, as in Delta, every pair
  // the merge condition joins counts for the ambiguity check.
  ExprPtr applies;
  for (const auto& clause : matched_) {
    if (clause.condition == nullptr) {
      applies = nullptr;
      break;
    }
    applies = applies == nullptr ? clause.condition : Call("or", {applies, clause.condition});
  }
  // Multiple matches are unambiguous when no matched clause applies (an insert-only merge),
  // or when every matched pair gets deleted.
  const bool multiple_allowed =
      matched_.empty() || (matched_.size() == 1 &&
                           matched_[0].action == MergeClause::Action::kDelete &&
                           matched_[0].condition == nullptr);
  Matches matches;
  matches.rows.resize(candidates.size());
  matches.sources.resize(candidates.size());
  const size_t shares = std::min(candidates.size(), Cores());
  std::vector<std::vector<uint8_t>> source_matched(
      shares, std::vector<uint8_t>(static_cast<size_t>(source_rows_->num_rows()), 0));
  std::vector<std::function<arrow::Status()>> tasks;
  for (size_t share = 0; share < shares; ++share) {
    const size_t begin = candidates.size() * share / shares;
    const size_t end = candidates.size() * (share + 1) / shares;
    tasks.push_back([&, share, begin, end] {
      return MatchShare(candidates, begin, end, applies, multiple_allowed, &matches,
                        &source_matched[share]);
    });
  }
  ARROW_RETURN_NOT_OK(RunInParallel(tasks));
  matches.source_matched.assign(static_cast<size_t>(source_rows_->num_rows()), 0);
  for (const auto& share : source_matched) {
    for (size_t i = 0; i < share.size(); ++i) matches.source_matched[i] |= share[i];
  }
  return matches;
}

arrow::Status MergeRun::MatchShare(const std::vector<AddFile>& candidates, size_t begin,
                                   size_t end, const ExprPtr& applies, bool multiple_allowed,
                                   Matches* matches, std::vector<uint8_t>* source_matched) const {
  std::vector<AddFile> files(candidates.begin() + static_cast<long>(begin),
                             candidates.begin() + static_cast<long>(end));
  ARROW_ASSIGN_OR_RAISE(auto target,
                        TargetPlan(std::move(files), key_columns_, /*with_row_positions=*/true));
  ARROW_ASSIGN_OR_RAISE(auto join, plan::Join::Make(target, source_, plan::JoinType::kInner,
                                                    spec_.condition, context_.analysis));
  // Null counts as false, as for a clause's condition.
  const ExprPtr no = expr::Lit(arrow::MakeScalar(false));
  ExprPtr applied = applies == nullptr ? expr::Lit(arrow::MakeScalar(true))
                                       : Call("coalesce", {applies, no});
  ARROW_ASSIGN_OR_RAISE(
      auto pairs, plan::Project::Make(join,
                                      {RefTo(*FindByName(join->output(), kMergeFileColumn)),
                                       RefTo(*FindByName(join->output(), kMergeRowColumn)),
                                       RefTo(*FindByName(join->output(), kSourceMarker)),
                                       Named(applied, "__delta_merge_applies")},
                                      context_.analysis));
  physical::ExecContext exec{context_.eval};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*pairs, exec));
  std::unordered_set<uint64_t> seen;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, stream->Next());
    if (batch == nullptr) break;
    const auto& files = static_cast<const arrow::Int32Array&>(*batch->column(0));
    const auto& rows = static_cast<const arrow::Int64Array&>(*batch->column(1));
    const auto& sources = static_cast<const arrow::Int64Array&>(*batch->column(2));
    const auto& applied_to = static_cast<const arrow::BooleanArray&>(*batch->column(3));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const size_t file = begin + static_cast<size_t>(files.Value(i));
      if (applied_to.Value(i)) {
        matches->rows[file].push_back(rows.Value(i));
        matches->sources[file].push_back(sources.Value(i));
      }
      (*source_matched)[static_cast<size_t>(sources.Value(i))] = 1;
      if (multiple_allowed) continue;
      if (!seen.insert(static_cast<uint64_t>(files.Value(i)) << 40 |
                       static_cast<uint64_t>(rows.Value(i)))
               .second) {
        return SparkError(
            "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE",
            "Cannot perform Merge as multiple source rows matched and attempted to modify the "
            "same target row in the Delta table in possibly conflicting ways. By SQL semantics "
            "of Merge, when multiple source rows match on the same target row, the result may "
            "be ambiguous as it is unclear which source row should be used to update or delete "
            "the matching target row. You can preprocess the source table to eliminate the "
            "possibility of multiple matches. Target file: " + candidates[file].path +
                ", row " + std::to_string(rows.Value(i)) + ".");
      }
    }
  }
  for (size_t file = begin; file < end; ++file) {
    for (auto* positions : {&matches->rows[file], &matches->sources[file]}) {
      std::sort(positions->begin(), positions->end());
      positions->erase(std::unique(positions->begin(), positions->end()), positions->end());
    }
  }
  return arrow::Status::OK();
}

arrow::Result<plan::PlanPtr> MergeRun::PlanChanges(const plan::PlanPtr& target,
                                                  const plan::PlanPtr& source,
                                                  plan::JoinType join_type,
                                                  bool insert_only) const {
  ARROW_ASSIGN_OR_RAISE(auto join, plan::Join::Make(target, source, join_type, spec_.condition,
                                                    context_.analysis));
  const auto* file = FindByName(join->output(), kMergeFileColumn);
  const auto* marker = FindByName(join->output(), kSourceMarker);
  const ExprPtr target_present = Call("isnotnull", {RefTo(*file)});
  const ExprPtr source_present = Call("isnotnull", {RefTo(*marker)});
  const ExprPtr matched = And(target_present, source_present);
  const auto matched_count = static_cast<int32_t>(matched_.size());

  // Which clause applies to each joined row: the first whose condition holds.
  std::vector<std::pair<ExprPtr, ExprPtr>> branches;
  if (insert_only) {
    branches.emplace_back(target_present, IntLiteral(kDrop));
  } else {
    for (int32_t i = 0; i < matched_count; ++i) {
      const auto& condition = matched_[static_cast<size_t>(i)].condition;
      branches.emplace_back(condition ? And(matched, condition) : matched, IntLiteral(i));
    }
    branches.emplace_back(matched, IntLiteral(kCopy));
  }
  const ExprPtr source_only = Call("not", {target_present});
  for (size_t j = 0; j < not_matched_.size(); ++j) {
    const auto& condition = not_matched_[j].condition;
    branches.emplace_back(condition ? And(source_only, condition) : source_only,
                          IntLiteral(matched_count + static_cast<int32_t>(j)));
  }
  branches.emplace_back(source_only, IntLiteral(kDrop));
  std::vector<ExprPtr> decided;
  for (const auto& attribute : join->output()) decided.push_back(RefTo(attribute));
  decided.push_back(
      Named(std::make_shared<expr::CaseWhen>(std::move(branches), IntLiteral(kCopy)),
            kClauseColumn));
  ARROW_ASSIGN_OR_RAISE(auto with_clause,
                        plan::Project::Make(join, decided, context_.analysis));

  // Each table column: the value the applied clause gives it, else the target's.
  const auto* clause = FindByName(with_clause->output(), kClauseColumn);
  const arrow::Schema& table = *snapshot_.schema;
  std::vector<ExprPtr> outputs;
  for (int c = 0; c < table.num_fields(); ++c) {
    const auto& field = table.field(c);
    ExprPtr current = expr::Lit(arrow::MakeNullScalar(field->type()));
    for (size_t a = 0; a < target->output().size(); ++a) {
      if (target->output()[a].name == field->name()) current = RefTo(target->output()[a]);
    }
    std::vector<std::pair<ExprPtr, ExprPtr>> values;
    auto add = [&](const std::vector<ResolvedClause>& clauses, int32_t first) {
      for (size_t i = 0; i < clauses.size(); ++i) {
        if (clauses[i].values.empty() || clauses[i].values[static_cast<size_t>(c)] == nullptr) {
          continue;
        }
        values.emplace_back(
            Call("=", {RefTo(*clause), IntLiteral(first + static_cast<int32_t>(i))}),
            clauses[i].values[static_cast<size_t>(c)]);
      }
    };
    // An insert-only plan drops every target row: no matched clause applies.
    if (!insert_only) add(matched_, 0);
    add(not_matched_, matched_count);
    ExprPtr value = values.empty() ? current
                                   : std::make_shared<expr::CaseWhen>(std::move(values), current);
    outputs.push_back(Named(value, field->name()));
  }
  outputs.push_back(RefTo(*FindByName(with_clause->output(), kMergeFileColumn)));
  outputs.push_back(RefTo(*clause));
  return plan::Project::Make(with_clause, outputs, context_.analysis);
}

arrow::Result<std::unique_ptr<DataFileWriter>> MergeRun::MakeWriter() const {
  return DataFileWriter::Make(log_, snapshot_.schema, snapshot_.metadata.partition_columns,
                              context_.write);
}

arrow::Status MergeRun::WriteChanges(const plan::PlanPtr& rows, RewriteOutput* out) const {
  physical::ExecContext exec{context_.eval};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*rows, exec));
  const auto matched_count = static_cast<int32_t>(matched_.size());
  const int columns = snapshot_.schema->num_fields();
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, stream->Next());
    if (batch == nullptr) break;
    const auto& codes = static_cast<const arrow::Int32Array&>(*batch->column(columns + 1));
    arrow::BooleanBuilder keep;
    ARROW_RETURN_NOT_OK(keep.Reserve(batch->num_rows()));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const int32_t code = codes.Value(i);
      bool kept = true;
      if (code == kCopy) {
        ++out->rows_copied;
      } else if (code == kDrop) {
        kept = false;
      } else if (code < matched_count) {
        if (matched_[static_cast<size_t>(code)].action == MergeClause::Action::kDelete) {
          ++out->rows_deleted;
          kept = false;
        } else {
          ++out->rows_updated;
        }
      } else {
        ++out->rows_inserted;
      }
      keep.UnsafeAppend(kept);
    }
    ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
    arrow::ArrayVector kept_columns(batch->columns().begin(),
                                    batch->columns().begin() + columns);
    auto data = arrow::RecordBatch::Make(snapshot_.schema, batch->num_rows(), kept_columns);
    ARROW_ASSIGN_OR_RAISE(auto filtered, arrow::compute::Filter(data, mask));
    const auto kept = filtered.record_batch();
    if (kept->num_rows() > 0) ARROW_RETURN_NOT_OK(out->writer->Write(kept));
  }
  return arrow::Status::OK();
}

arrow::Status MergeRun::WriteInserts(std::shared_ptr<arrow::Table> unmatched,
                                     RewriteOutput* out) const {
  // No target row matched these source rows: an empty target leaves them all unmatched.
  ARROW_ASSIGN_OR_RAISE(auto target, TargetPlan({}, key_columns_, false));
  ARROW_ASSIGN_OR_RAISE(auto rows, PlanChanges(target, SourceOf(std::move(unmatched)),
                                               plan::JoinType::kRightOuter, true));
  ARROW_ASSIGN_OR_RAISE(out->writer, MakeWriter());
  ARROW_RETURN_NOT_OK(WriteChanges(rows, out));
  ARROW_ASSIGN_OR_RAISE(out->added, out->writer->Finish());
  return arrow::Status::OK();
}

arrow::Status MergeRun::RewriteFile(const AddFile& file, const std::vector<int64_t>& positions,
                                    const std::vector<int64_t>& sources,
                                    RewriteOutput* out) const {
  ARROW_ASSIGN_OR_RAISE(out->writer, MakeWriter());
  ARROW_ASSIGN_OR_RAISE(auto scan, MergeTargetScan::Make(log_.table_path(), snapshot_, {file},
                                                         {}, false, context_.format));
  ARROW_ASSIGN_OR_RAISE(auto reader, scan->Open());
  const int columns = snapshot_.schema->num_fields();
  std::vector<std::shared_ptr<arrow::RecordBatch>> matched;
  auto next = positions.begin();
  int64_t first = 0;  // the position in the file of the batch's first row
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    ARROW_RETURN_NOT_OK(reader->ReadNext(&batch));
    if (batch == nullptr) break;
    const int64_t n = batch->num_rows();
    const int64_t end = first + n;
    std::shared_ptr<arrow::RecordBatch> copied = arrow::RecordBatch::Make(
        snapshot_.schema, n,
        arrow::ArrayVector(batch->columns().begin(), batch->columns().begin() + columns));
    if (next != positions.end() && *next < end) {
      // The batch less its matched rows, whole: the writer chooses each column's encoding
      // from its first batch, which slices between matched rows would make small.
      arrow::Int64Builder picked;
      arrow::BooleanBuilder unpicked;
      ARROW_RETURN_NOT_OK(unpicked.Reserve(n));
      for (int64_t row = 0; row < n; ++row) {
        const bool match = next != positions.end() && *next == first + row;
        unpicked.UnsafeAppend(!match);
        if (!match) continue;
        ARROW_RETURN_NOT_OK(picked.Append(row));
        ++next;
      }
      ARROW_ASSIGN_OR_RAISE(auto indices, picked.Finish());
      ARROW_ASSIGN_OR_RAISE(auto rows, arrow::compute::Take(batch, indices));
      matched.push_back(rows.record_batch());
      ARROW_ASSIGN_OR_RAISE(auto mask, unpicked.Finish());
      ARROW_ASSIGN_OR_RAISE(auto kept, arrow::compute::Filter(copied, mask));
      copied = kept.record_batch();
    }
    out->rows_copied += copied->num_rows();
    if (copied->num_rows() > 0) ARROW_RETURN_NOT_OK(out->writer->Write(copied));
    first = end;
  }
  if (next != positions.end()) {
    return arrow::Status::IOError("The Delta data file ", file.path, " holds ", first,
                                  " rows, fewer than the merge's scan of it found");
  }
  if (!matched.empty()) {
    ARROW_ASSIGN_OR_RAISE(auto rows, arrow::Table::FromRecordBatches(scan->schema(), matched));
    // The source rows these matched: a join with the whole source would build its hash table
    // again for every rewritten file.
    arrow::Int64Builder indices;
    ARROW_RETURN_NOT_OK(indices.AppendValues(sources));
    ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
    ARROW_ASSIGN_OR_RAISE(auto matched_sources, arrow::compute::Take(source_rows_, index_array));
    ARROW_ASSIGN_OR_RAISE(auto changes,
                          PlanChanges(Aliased(std::make_shared<plan::InMemorySource>(rows)),
                                      SourceOf(matched_sources.table()),
                                      plan::JoinType::kLeftOuter, false));
    ARROW_RETURN_NOT_OK(WriteChanges(changes, out));
  }
  ARROW_ASSIGN_OR_RAISE(out->added, out->writer->Finish());
  return arrow::Status::OK();
}

arrow::Status MergeRun::WriteAll(
    const std::vector<std::function<arrow::Status(RewriteOutput*)>>& tasks) {
  rewrites_.resize(tasks.size());
  std::vector<std::function<arrow::Status()>> runs;
  for (size_t i = 0; i < tasks.size(); ++i) {
    runs.push_back([this, &tasks, i] { return tasks[i](&rewrites_[i]); });
  }
  auto status = RunInParallel(runs);
  for (const auto& rewrite : rewrites_) {
    metrics_.target_rows_updated += rewrite.rows_updated;
    metrics_.target_rows_deleted += rewrite.rows_deleted;
    metrics_.target_rows_inserted += rewrite.rows_inserted;
    metrics_.target_rows_copied += rewrite.rows_copied;
  }
  // Finished files are no longer deleted with their writer.
  if (!status.ok()) AbandonRewrites();
  return status;
}

void MergeRun::AbandonRewrites() {
  for (auto& rewrite : rewrites_) {
    if (rewrite.writer != nullptr) rewrite.writer->Abandon();
  }
}

arrow::Result<MergeResult> MergeRun::Commit(const std::vector<AddFile>& candidates,
                                            const std::vector<AddFile>& removed) {
  MergeResult result;
  for (const auto& rewrite : rewrites_) {
    result.added_files.insert(result.added_files.end(), rewrite.added.begin(),
                              rewrite.added.end());
    metrics_.target_bytes_added += rewrite.writer->bytes();
  }
  metrics_.target_files_removed = static_cast<int64_t>(removed.size());
  metrics_.target_files_added = static_cast<int64_t>(result.added_files.size());
  for (const auto& file : removed) {
    metrics_.target_bytes_removed += file.size;
    result.removed_files.push_back(file.path);
  }
  if (removed.empty() && result.added_files.empty()) {
    metrics_.execution_time_ms = MillisSince(started_);
    result.metrics = metrics_;
    return result;
  }
  const int64_t now_ms = context_.write.now_ms;
  std::vector<Action> actions;
  actions.push_back(CommitInfo{});  // made once the metrics are complete
  for (const auto& file : removed) actions.push_back(RemoveOf(file, now_ms));
  for (const auto& file : result.added_files) actions.push_back(file);
  metrics_.execution_time_ms = MillisSince(started_);
  actions.front() = MergeCommitInfo(spec_, metrics_, snapshot_.version, now_ms);

  ConflictRules rules;
  for (const auto& file : candidates) rules.read_files.insert(file.path);
  for (const auto& file : removed) rules.removed_files.insert(file.path);
  rules.read_whole_table = true;
  auto version = CommitWithRetries(log_, snapshot_, actions, rules);
  if (!version.ok()) {
    // A commit in place already refers to the rewritten files.
    if (!checkpoint::IsInPlace(version.status())) AbandonRewrites();
    return version.status();
  }
  result.version = *version;
  result.metrics = metrics_;
  ARROW_RETURN_NOT_OK(AfterCommit(log_, snapshot_, *version).status());
  return result;
}

arrow::Result<MergeResult> MergeRun::Run() {
  ARROW_ASSIGN_OR_RAISE(snapshot_, log_.Load());
  ARROW_RETURN_NOT_OK(CheckReadable(snapshot_.protocol, log_.table_path()));
  ARROW_RETURN_NOT_OK(CheckWritable(snapshot_, log_.table_path(), !spec_.matched.empty()));
  ARROW_RETURN_NOT_OK(ReadSource());
  ARROW_RETURN_NOT_OK(Resolve());
  const std::vector<AddFile> candidates = Candidates();
  const auto scan_start = Clock::now();
  ARROW_ASSIGN_OR_RAISE(const Matches matches, FindMatches(candidates));
  metrics_.scan_time_ms = MillisSince(scan_start);
  const auto rewrite_start = Clock::now();
  // The inserts, then each touched file on its own (the files are independent), written in
  // parallel and added in this order.
  std::vector<std::function<arrow::Status(RewriteOutput*)>> tasks;
  if (!not_matched_.empty()) {
    // Source rows that matched no target row.
    arrow::Int64Builder unmatched;
    for (size_t i = 0; i < matches.source_matched.size(); ++i) {
      if (!matches.source_matched[i]) ARROW_RETURN_NOT_OK(unmatched.Append(static_cast<int64_t>(i)));
    }
    if (unmatched.length() > 0) {
      std::shared_ptr<arrow::Table> rows = source_rows_;
      if (unmatched.length() < source_rows_->num_rows()) {
        ARROW_ASSIGN_OR_RAISE(auto indices, unmatched.Finish());
        ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(source_rows_, indices));
        rows = taken.table();
      }
      tasks.push_back([this, rows](RewriteOutput* out) { return WriteInserts(rows, out); });
    }
  }
  std::vector<AddFile> touched;
  if (!matched_.empty()) {
    for (size_t f = 0; f < candidates.size(); ++f) {
      if (matches.rows[f].empty()) continue;
      touched.push_back(candidates[f]);
      tasks.push_back([this, &candidates, &matches, f](RewriteOutput* out) {
        return RewriteFile(candidates[f], matches.rows[f], matches.sources[f], out);
      });
    }
  }
  ARROW_RETURN_NOT_OK(WriteAll(tasks));
  metrics_.rewrite_time_ms = MillisSince(rewrite_start);
  return Commit(candidates, touched);
}

}  // namespace

arrow::Result<MergeResult> Merge(const DeltaLog& log, const MergeSpec& spec,
                                 const MergeContext& context) {
  MergeRun run(log, spec, context);
  return run.Run();
}

}  // namespace sluice::delta
