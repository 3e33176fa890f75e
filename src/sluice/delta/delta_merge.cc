#include "sluice/delta/delta_merge.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <set>
#include <thread>
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
#include "sluice/common/json_writer.h"
#include "sluice/delta/delta_protocol.h"
#include "sluice/delta/merge_file_skipping.h"
#include "sluice/delta/merge_target_scan.h"
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

/// Set on every source row, so that an outer join tells a missing source side from nulls.
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

/// The user-visible columns of `attributes` (qualified), for error messages.
std::string ColumnList(const expr::AttributeList& attributes) {
  std::string text;
  for (const auto& attribute : attributes) {
    if (attribute.name.starts_with("__delta_merge_")) continue;
    if (!text.empty()) text += ", ";
    for (const auto& part : attribute.qualifier) text += part + ".";
    text += attribute.name;
  }
  return text;
}

arrow::Status Unresolved(const std::string& what, const std::string& clause,
                         const expr::AttributeList& scope, const arrow::Status& cause) {
  std::string message = "Cannot resolve " + what + " in " + clause + " given columns " +
                        ColumnList(scope) + ".";
  if (!cause.ok()) message += " " + cause.message();
  return SparkError("DELTA_MERGE_UNRESOLVED_EXPRESSION", message);
}

/// `e` bound against `scope`; an unresolvable column becomes Delta's error naming the clause.
arrow::Result<expr::BoundExprPtr> BindIn(const ExprPtr& e, const std::string& clause,
                                         const expr::AttributeList& scope,
                                         const plan::AnalysisContext& context) {
  expr::BindScope bind{&scope, context.config, context.registry, {}};
  auto bound = expr::Bind(*e, bind);
  if (bound.ok()) return bound;
  auto error_class = ErrorClassOf(bound.status()).value_or("");
  if (error_class.starts_with("UNRESOLVED_COLUMN") || error_class.starts_with("MISSING_")) {
    return Unresolved(e->ToString(), clause, scope, bound.status());
  }
  return bound.status();
}

/// Every input column index `e` reads.
void CollectColumns(const expr::BoundExpr& e, std::set<int>* columns) {
  if (e.kind() == expr::BoundKind::kColumn) {
    columns->insert(static_cast<const expr::BoundColumn&>(e).index());
  }
  for (const auto& child : e.children()) CollectColumns(*child, columns);
}

/// The conjuncts of `e` (split on AND).
void Conjuncts(const ExprPtr& e, std::vector<ExprPtr>* out) {
  if (e->kind() == expr::ExprKind::kCall &&
      static_cast<const expr::Call&>(*e).name() == "and") {
    for (const auto& child : e->children()) Conjuncts(child, out);
    return;
  }
  out->push_back(e);
}

const char* ActionName(MergeClause::Action action) {
  switch (action) {
    case MergeClause::Action::kUpdate:
      return "update";
    case MergeClause::Action::kDelete:
      return "delete";
    case MergeClause::Action::kInsert:
      return "insert";
  }
  return "";
}

std::string ClausesJson(const std::vector<MergeClause>& clauses) {
  JsonWriter json(JsonWriter::Layout::kCompact);
  json.StartArray();
  for (const auto& clause : clauses) {
    json.StartObject();
    if (clause.condition != nullptr) {
      json.Key("predicate");
      json.String(clause.condition->ToString());
    }
    json.Key("actionType");
    json.String(ActionName(clause.action));
    json.EndObject();
  }
  json.EndArray();
  return std::move(json).TakeText();
}

/// A clause ready to plan: its condition and, per table column, its value (null: unchanged
/// for an update, null for an insert), cast to the column's type.
struct ResolvedClause {
  MergeClause::Action action;
  ExprPtr condition;
  std::vector<ExprPtr> values;
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

/// Runs `tasks` on up to one thread per core (the calling thread among them); each task runs
/// once. Returns the error of the first task, in order, that failed; once one failed, tasks
/// not yet started are skipped.
arrow::Status RunInParallel(const std::vector<std::function<arrow::Status()>>& tasks) {
  std::vector<arrow::Status> statuses(tasks.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (size_t i = next++; i < tasks.size() && !failed; i = next++) {
      statuses[i] = tasks[i]();
      if (!statuses[i].ok()) failed = true;
    }
  };
  const size_t threads =
      std::min<size_t>(tasks.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (auto& helper : helpers) helper.join();
  for (const auto& status : statuses) ARROW_RETURN_NOT_OK(status);
  return arrow::Status::OK();
}

/// One run of a MERGE: the table version it reads, the source rows, and what it found.
class MergeRun {
 public:
  MergeRun(const DeltaLog& log, const MergeSpec& spec, const MergeContext& context)
      : log_(log), spec_(spec), context_(context) {}

  arrow::Result<MergeResult> Run();

 private:
  /// Reads the source once into memory and marks its rows.
  arrow::Status ReadSource();
  /// The target rows of `files` (all columns, or those of `columns`) under the target alias.
  arrow::Result<plan::PlanPtr> TargetPlan(std::vector<AddFile> files,
                                          const std::vector<std::string>& columns,
                                          bool with_row_positions) const;
  /// Checks the condition and clauses against the table and the source, and resolves them.
  arrow::Status Resolve();
  arrow::Result<ResolvedClause> ResolveClause(const MergeClause& clause, bool matched);
  /// The files the merge must read: those whose statistics leave room for a source key.
  std::vector<AddFile> Candidates();
  /// The candidate files holding a matched row (indexes into `candidates`); fails on a target
  /// row matched by two source rows.
  arrow::Result<std::vector<size_t>> FindTouchedFiles(const std::vector<AddFile>& candidates);
  /// The plan joining `target` with the source and applying the clauses: the table's
  /// columns, then each row's file (null for an insert) and its clause code. Rewriting each
  /// target file by a plan of its own keeps its rows apart from the others' and from the
  /// inserts: the table keeps its layout, so a later merge of clustered keys again rewrites
  /// few files.
  arrow::Result<plan::PlanPtr> PlanChanges(const plan::PlanPtr& target, plan::JoinType join,
                                           bool insert_only) const;
  /// Executes `rows` (a PlanChanges plan) and writes the rows that remain into new files of
  /// `out`'s own writer, finished (durable, not committed). Safe to call concurrently.
  arrow::Status WriteChanges(const plan::PlanPtr& rows, RewriteOutput* out) const;
  /// Writes the changes of every plan, in parallel, into rewrites_ (in the plans' order).
  arrow::Status WriteAll(const std::vector<plan::PlanPtr>& plans);
  arrow::Result<MergeResult> Commit(const std::vector<AddFile>& candidates,
                                    const std::vector<AddFile>& removed);
  void AbandonRewrites();

  const DeltaLog& log_;
  const MergeSpec& spec_;
  const MergeContext& context_;
  Clock::time_point started_ = Clock::now();
  Snapshot snapshot_;
  std::shared_ptr<arrow::Table> source_rows_;
  /// The source as read, with kSourceMarker.
  plan::PlanPtr source_;
  /// The target's columns with every file's columns, then the source's: the scope in which
  /// the condition and matched clauses resolve.
  expr::AttributeList joined_scope_;
  size_t target_columns_ = 0;
  expr::BoundExprPtr bound_condition_;
  std::vector<ResolvedClause> matched_;
  std::vector<ResolvedClause> not_matched_;
  /// Table columns the condition (and matched clause conditions) read.
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
  ARROW_ASSIGN_OR_RAISE(source_rows_, physical::CollectTable(*stream));
  metrics_.source_rows = source_rows_->num_rows();
  // The same attributes as the source plan, so its columns resolve as the caller wrote them
  // (qualified by the source's alias, or through the DataFrame they came from).
  auto rows = std::make_shared<plan::Relation>(
      std::make_shared<plan::InMemorySource>(source_rows_), spec_.source->output());
  std::vector<ExprPtr> marked;
  for (const auto& attribute : rows->output()) marked.push_back(RefTo(attribute));
  marked.push_back(Named(expr::Lit(arrow::MakeScalar(true)), kSourceMarker));
  ARROW_ASSIGN_OR_RAISE(source_, plan::Project::Make(rows, marked, context_.analysis));
  return arrow::Status::OK();
}

arrow::Result<plan::PlanPtr> MergeRun::TargetPlan(std::vector<AddFile> files,
                                                  const std::vector<std::string>& columns,
                                                  bool with_row_positions) const {
  ARROW_ASSIGN_OR_RAISE(auto scan,
                        MergeTargetScan::Make(log_.table_path(), snapshot_, std::move(files),
                                              columns, with_row_positions, context_.format));
  plan::PlanPtr target = plan::Relation::Make(std::move(scan), context_.analysis);
  if (!spec_.target_alias.empty()) target = plan::SubqueryAlias::Make(target, spec_.target_alias);
  return target;
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
    if (resolved.condition != nullptr && spec_.not_matched.empty()) {
      // A matched-only merge looks for rows meeting some clause's condition.
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

arrow::Result<std::vector<size_t>> MergeRun::FindTouchedFiles(
    const std::vector<AddFile>& candidates) {
  ARROW_ASSIGN_OR_RAISE(auto target, TargetPlan(candidates, key_columns_,
                                                /*with_row_positions=*/true));
  ExprPtr condition = spec_.condition;
  if (not_matched_.empty()) {
    // Only rows some matched clause would change are of interest.
    ExprPtr any;
    for (const auto& clause : matched_) {
      if (clause.condition == nullptr) {
        any = nullptr;
        break;
      }
      any = any == nullptr ? clause.condition : Call("or", {any, clause.condition});
    }
    if (any != nullptr) condition = And(condition, any);
  }
  ARROW_ASSIGN_OR_RAISE(auto join, plan::Join::Make(target, source_, plan::JoinType::kInner,
                                                    condition, context_.analysis));
  const auto* file = FindByName(join->output(), kMergeFileColumn);
  const auto* row = FindByName(join->output(), kMergeRowColumn);
  ARROW_ASSIGN_OR_RAISE(auto pairs,
                        plan::Project::Make(join, {RefTo(*file), RefTo(*row)}, context_.analysis));
  physical::ExecContext exec{context_.eval};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*pairs, exec));
  // Multiple matches are unambiguous only when every matched pair gets deleted.
  const bool multiple_allowed = matched_.size() == 1 &&
                                matched_[0].action == MergeClause::Action::kDelete &&
                                matched_[0].condition == nullptr;
  std::unordered_set<uint64_t> seen;
  std::vector<bool> touched(candidates.size(), false);
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, stream->Next());
    if (batch == nullptr) break;
    const auto& files = static_cast<const arrow::Int32Array&>(*batch->column(0));
    const auto& rows = static_cast<const arrow::Int64Array&>(*batch->column(1));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const auto f = static_cast<uint64_t>(files.Value(i));
      touched[f] = true;
      if (multiple_allowed) continue;
      if (!seen.insert(f << 40 | static_cast<uint64_t>(rows.Value(i))).second) {
        return SparkError(
            "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE",
            "Cannot perform Merge as multiple source rows matched and attempted to modify the "
            "same target row in the Delta table in possibly conflicting ways. By SQL semantics "
            "of Merge, when multiple source rows match on the same target row, the result may "
            "be ambiguous as it is unclear which source row should be used to update or delete "
            "the matching target row. You can preprocess the source table to eliminate the "
            "possibility of multiple matches. Target file: " + candidates[f].path +
                ", row " + std::to_string(rows.Value(i)) + ".");
      }
    }
  }
  std::vector<size_t> indexes;
  for (size_t f = 0; f < touched.size(); ++f) {
    if (touched[f]) indexes.push_back(f);
  }
  return indexes;
}

arrow::Result<plan::PlanPtr> MergeRun::PlanChanges(const plan::PlanPtr& target,
                                                  plan::JoinType join_type,
                                                  bool insert_only) const {
  ARROW_ASSIGN_OR_RAISE(auto join, plan::Join::Make(target, source_, join_type, spec_.condition,
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

arrow::Status MergeRun::WriteChanges(const plan::PlanPtr& rows, RewriteOutput* out) const {
  physical::ExecContext exec{context_.eval};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*rows, exec));
  ARROW_ASSIGN_OR_RAISE(out->writer, DataFileWriter::Make(log_, snapshot_.schema,
                                                          snapshot_.metadata.partition_columns,
                                                          context_.write));
  DataFileWriter& writer = *out->writer;
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
    if (kept->num_rows() > 0) ARROW_RETURN_NOT_OK(writer.Write(kept));
  }
  ARROW_ASSIGN_OR_RAISE(out->added, writer.Finish());
  return arrow::Status::OK();
}

arrow::Status MergeRun::WriteAll(const std::vector<plan::PlanPtr>& plans) {
  rewrites_.resize(plans.size());
  std::vector<std::function<arrow::Status()>> tasks;
  for (size_t i = 0; i < plans.size(); ++i) {
    tasks.push_back([this, &plans, i] { return WriteChanges(plans[i], &rewrites_[i]); });
  }
  auto status = RunInParallel(tasks);
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
  CommitInfo info;
  info.timestamp = now_ms;
  info.operation = "MERGE";
  JsonWriter predicate(JsonWriter::Layout::kCompact);
  predicate.StartArray();
  predicate.String(spec_.condition->ToString());
  predicate.EndArray();
  info.operation_parameters = {{"predicate", std::move(predicate).TakeText()},
                               {"matchedPredicates", ClausesJson(spec_.matched)},
                               {"notMatchedPredicates", ClausesJson(spec_.not_matched)},
                               {"notMatchedBySourcePredicates", "[]"}};
  info.read_version = snapshot_.version;
  info.isolation_level = "WriteSerializable";
  info.is_blind_append = false;
  info.engine_info = "Sluice";
  info.txn_id = formats::RandomUuid();
  std::vector<Action> actions;
  actions.push_back(CommitInfo{});  // filled once the metrics are complete
  for (const auto& file : removed) actions.push_back(RemoveOf(file, now_ms));
  for (const auto& file : result.added_files) actions.push_back(file);
  metrics_.execution_time_ms = MillisSince(started_);
  info.operation_metrics = metrics_.ToOperationMetrics();
  actions.front() = std::move(info);

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
  std::vector<AddFile> candidates = Candidates();
  if (spec_.matched.empty()) {
    // Insert-only: the source rows without a match in the files they could match.
    ARROW_ASSIGN_OR_RAISE(auto target, TargetPlan(candidates, key_columns_, false));
    const auto scanned = Clock::now();
    ARROW_ASSIGN_OR_RAISE(auto rows, PlanChanges(target, plan::JoinType::kRightOuter, true));
    ARROW_RETURN_NOT_OK(WriteAll({rows}));
    metrics_.rewrite_time_ms = MillisSince(scanned);
    return Commit(candidates, {});
  }
  const auto scan_start = Clock::now();
  ARROW_ASSIGN_OR_RAISE(auto touched_indexes, FindTouchedFiles(candidates));
  metrics_.scan_time_ms = MillisSince(scan_start);
  std::vector<AddFile> touched;
  for (size_t index : touched_indexes) touched.push_back(candidates[index]);
  const auto rewrite_start = Clock::now();
  // The inserts, then each touched file on its own (the files are independent), written in
  // parallel and added in this order.
  std::vector<plan::PlanPtr> plans;
  if (!not_matched_.empty()) {
    // Source rows matching no touched file's row match no row at all (any row a source row
    // matched made its file touched): they are the inserts. First, as the longest task: it
    // reads the key columns of every touched file.
    ARROW_ASSIGN_OR_RAISE(auto target, TargetPlan(touched, key_columns_, false));
    ARROW_ASSIGN_OR_RAISE(auto rows, PlanChanges(target, plan::JoinType::kRightOuter, true));
    plans.push_back(std::move(rows));
  }
  for (const auto& file : touched) {
    ARROW_ASSIGN_OR_RAISE(auto target, TargetPlan({file}, {}, false));
    ARROW_ASSIGN_OR_RAISE(auto rows, PlanChanges(target, plan::JoinType::kLeftOuter, false));
    plans.push_back(std::move(rows));
  }
  ARROW_RETURN_NOT_OK(WriteAll(plans));
  metrics_.rewrite_time_ms = MillisSince(rewrite_start);
  return Commit(candidates, touched);
}

}  // namespace

std::map<std::string, std::string> MergeMetrics::ToOperationMetrics() const {
  auto text = [](int64_t value) { return std::to_string(value); };
  return {{"numSourceRows", text(source_rows)},
          {"numTargetRowsInserted", text(target_rows_inserted)},
          {"numTargetRowsUpdated", text(target_rows_updated)},
          {"numTargetRowsMatchedUpdated", text(target_rows_updated)},
          {"numTargetRowsNotMatchedBySourceUpdated", "0"},
          {"numTargetRowsDeleted", text(target_rows_deleted)},
          {"numTargetRowsMatchedDeleted", text(target_rows_deleted)},
          {"numTargetRowsNotMatchedBySourceDeleted", "0"},
          {"numTargetRowsCopied", text(target_rows_copied)},
          {"numOutputRows",
           text(target_rows_inserted + target_rows_updated + target_rows_copied)},
          {"numTargetFilesAdded", text(target_files_added)},
          {"numTargetFilesRemoved", text(target_files_removed)},
          {"numTargetBytesAdded", text(target_bytes_added)},
          {"numTargetBytesRemoved", text(target_bytes_removed)},
          {"numTargetChangeFilesAdded", "0"},
          {"executionTimeMs", text(execution_time_ms)},
          {"scanTimeMs", text(scan_time_ms)},
          {"rewriteTimeMs", text(rewrite_time_ms)}};
}

arrow::Result<MergeResult> Merge(const DeltaLog& log, const MergeSpec& spec,
                                 const MergeContext& context) {
  MergeRun run(log, spec, context);
  return run.Run();
}

}  // namespace sluice::delta
