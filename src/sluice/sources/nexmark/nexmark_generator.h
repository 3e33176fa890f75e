// The Nexmark benchmark's events, generated as the reference generator (Apache Beam's Nexmark
// suite) generates them: Person, Auction and Bid in the fixed pattern of 1:3:46 per 50 event
// ids, hot auctions, sellers and bidders, log-uniform prices, strings padded to the average
// sizes of 200, 500 and 100 bytes, and event times spaced by a rate from a base time.
//
// Each event is drawn from its own java.util.Random, with the reference's draws in the
// reference's order, so an event depends on its id alone: any range of events can be generated
// on its own, in any order, and a run is the same on every machine. The reference seeds each
// event's Random with the event's id; as java.util.Random's first draws barely differ between
// nearby seeds, thousands of consecutive bids then make the same hot-or-not choice (all to the
// hot auction, say). The seed is therefore the id mixed with a run seed by SplitMix64, which
// keeps the choices independent from event to event; with the reference's seeding (a test
// setting) the fields are those of the reference bit for bit. Bids also carry the channel and
// url of the Flink suite's generator, with its distribution (half to four hot channels, half to
// 10,000 others), drawn after the reference's fields.
//
// The rows follow the Flink suite's table: event_type (0 person, 1 auction, 2 bid), the three
// event structs of which only the event's own is set, and the event's dateTime.
#pragma once

#include <cstdint>
#include <memory>

#include <arrow/memory_pool.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::sources::nexmark {

/// When events happen.
struct GeneratorConfig {
  /// The event time of event 0, in milliseconds since the epoch (default: the reference's
  /// 2015-07-15T00:00:00Z).
  int64_t base_time_ms = 1'436'918'400'000;
  /// Event time between two events, in microseconds (1,000,000 / events per second).
  double inter_event_delay_us = 100;
  /// Mixed with each event's id into the seed of its Random: another seed, other events.
  int64_t seed = 0;
  /// Seeds each event's Random with its id alone, as the reference generator does (its
  /// events, with their local lack of randomness).
  bool reference_seeds = false;

  /// The event time of event `event_number`, in milliseconds.
  int64_t TimestampOf(int64_t event_number) const;
};

enum class EventType : int32_t { kPerson = 0, kAuction = 1, kBid = 2 };

/// The type of event `event_id`: its place in the repeating pattern of 50.
EventType TypeOf(int64_t event_id);

/// event_type INT, person STRUCT<...>, auction STRUCT<...>, bid STRUCT<...>, dateTime TIMESTAMP.
std::shared_ptr<arrow::Schema> NexmarkSchema();

/// The events [begin, end) as one record batch of NexmarkSchema().
arrow::Result<std::shared_ptr<arrow::RecordBatch>> GenerateEvents(
    const GeneratorConfig& config, int64_t begin, int64_t end,
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace sluice::sources::nexmark
