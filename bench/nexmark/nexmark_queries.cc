#include "nexmark_queries.h"

#include "sluice/api/functions.h"

namespace sluice::bench::nexmark {

namespace {

namespace F = functions;

DataFrame Person(const DataFrame& events) {
  return events.where(F::col("event_type") == 0)
      .select({F::col("person.id").alias("id"), F::col("person.name").alias("name"),
               F::col("person.emailAddress").alias("emailAddress"),
               F::col("person.creditCard").alias("creditCard"),
               F::col("person.city").alias("city"), F::col("person.state").alias("state"),
               F::col("dateTime"), F::col("person.extra").alias("extra")})
      .withWatermark("dateTime", "4 seconds");
}

DataFrame Auction(const DataFrame& events) {
  return events.where(F::col("event_type") == 1)
      .select({F::col("auction.id").alias("id"), F::col("auction.itemName").alias("itemName"),
               F::col("auction.description").alias("description"),
               F::col("auction.initialBid").alias("initialBid"),
               F::col("auction.reserve").alias("reserve"), F::col("dateTime"),
               F::col("auction.expires").alias("expires"),
               F::col("auction.seller").alias("seller"),
               F::col("auction.category").alias("category"),
               F::col("auction.extra").alias("extra")})
      .withWatermark("dateTime", "4 seconds");
}

DataFrame Bid(const DataFrame& events) {
  return events.where(F::col("event_type") == 2)
      .select({F::col("bid.auction").alias("auction"), F::col("bid.bidder").alias("bidder"),
               F::col("bid.price").alias("price"), F::col("bid.channel").alias("channel"),
               F::col("bid.url").alias("url"), F::col("dateTime"),
               F::col("bid.extra").alias("extra")})
      .withWatermark("dateTime", "4 seconds");
}

// q0: pass-through, the cost of reading the events.
DataFrame Q0(const DataFrame& events) {
  return Bid(events).select(
      {F::col("auction"), F::col("bidder"), F::col("price"), F::col("dateTime"), F::col("extra")});
}

// q1: currency conversion, dollars to euros.
DataFrame Q1(const DataFrame& events) {
  return Bid(events).select({F::col("auction"), F::col("bidder"),
                             F::expr("0.908 * price").alias("price"), F::col("dateTime"),
                             F::col("extra")});
}

// q2: the bids of every 123rd auction.
DataFrame Q2(const DataFrame& events) {
  return Bid(events)
      .where(F::col("auction") % 123 == 0)
      .select({F::col("auction"), F::col("price")});
}

// q3: who sells in category 10 in Oregon, Idaho or California: an inner join whose state is
// never evicted (no time bound), as in the suite.
DataFrame Q3(const DataFrame& events) {
  DataFrame auctions = Auction(events)
                           .where(F::col("category") == 10)
                           .select({F::col("id").alias("a_id"), F::col("seller")});
  DataFrame persons =
      Person(events)
          .where(F::col("state").isin({F::lit("OR"), F::lit("ID"), F::lit("CA")}))
          .select({F::col("id").alias("p_id"), F::col("name"), F::col("city"), F::col("state")});
  return auctions.join(persons, F::col("seller") == F::col("p_id"))
      .select({F::col("name"), F::col("city"), F::col("state"), F::col("a_id").alias("id")});
}

// q8: persons who opened an auction in the 10-second window they registered in: a
// stream-stream join on the person and the window, whose state leaves with the watermark.
DataFrame Q8(const DataFrame& events) {
  DataFrame persons = Person(events).select(
      {F::col("id"), F::col("name"), F::window(F::col("dateTime"), "10 seconds").alias("p_window")});
  DataFrame auctions = Auction(events).select(
      {F::col("seller"), F::window(F::col("dateTime"), "10 seconds").alias("a_window")});
  return persons
      .join(auctions,
            F::col("id") == F::col("seller") && F::col("p_window") == F::col("a_window"))
      .select({F::col("id"), F::col("name"), F::col("p_window.start").alias("starttime")});
}

}  // namespace

const std::vector<Query>& Queries() {
  static const std::vector<Query> queries = {
      {"q0", "pass-through", Q0, "SELECT auction, bidder, price, dateTime, extra FROM bid"},
      {"q1", "currency conversion", Q1,
       "SELECT auction, bidder, 0.908 * price AS price, dateTime, extra FROM bid"},
      {"q2", "selection", Q2, "SELECT auction, price FROM bid WHERE auction % 123 = 0"},
      {"q3", "local item suggestion (join)", Q3,
       "SELECT P.name, P.city, P.state, A.id FROM auction A JOIN person P ON A.seller = P.id "
       "WHERE A.category = 10 AND (P.state = 'OR' OR P.state = 'ID' OR P.state = 'CA')",
       true},
      {"q8", "monitor new users (window join)", Q8,
       "SELECT P.id, P.name, P.w.start AS starttime FROM "
       "(SELECT id, name, window(dateTime, '10 seconds') AS w FROM person) P JOIN "
       "(SELECT seller, window(dateTime, '10 seconds') AS w FROM auction) A "
       "ON P.id = A.seller AND P.w = A.w",
       true},
  };
  return queries;
}

arrow::Status RegisterViews(const DataFrame& events) {
  ARROW_RETURN_NOT_OK(Person(events).createOrReplaceTempView("person"));
  ARROW_RETURN_NOT_OK(Auction(events).createOrReplaceTempView("auction"));
  return Bid(events).createOrReplaceTempView("bid");
}

}  // namespace sluice::bench::nexmark
