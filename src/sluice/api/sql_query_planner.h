// SQL queries as DataFrames: the planner walks a parsed query (sql/query_ast.h) and makes the
// DataFrame calls a user of the DataFrame API would make for it (select, filter, groupBy().agg(),
// join, union, orderBy, limit), so SQL and DataFrame code meet in one analyzer and one plan.
#pragma once

#include "sluice/api/dataframe.h"
#include "sluice/sql/query_ast.h"

namespace sluice {

class SparkSession;

/// The DataFrame of `query`, streaming when it reads a streaming view. Names resolve as in
/// Spark: common table expressions of the query, then temporary views, then the warehouse's
/// named tables. Analysis errors are kept in the returned DataFrame (its status()), as for every
/// DataFrame; scalar subqueries run when the query is planned, as Spark runs them before the
/// query that uses them.
DataFrame PlanSqlQuery(const SparkSession& session, const sql::Query& query);

}  // namespace sluice
