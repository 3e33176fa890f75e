// The Nexmark generator: events as the reference generator (Apache Beam's Nexmark suite, run
// with java.util.Random seeded by each event's id, base time 2015-07-15T00:00:00Z and 10,000
// events per second) produces them, and the benchmark's distributions over many events.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include <arrow/api.h>
#include <gtest/gtest.h>

#include "sluice/sources/nexmark/java_random.h"
#include "sluice/sources/nexmark/nexmark_generator.h"

namespace sluice::sources::nexmark {
namespace {

constexpr int64_t kBase = 1'436'918'400'000;

/// The events [begin, end) with the reference's settings.
std::shared_ptr<arrow::RecordBatch> ReferenceEvents(int64_t begin, int64_t end) {
  GeneratorConfig config;
  config.reference_seeds = true;
  auto batch = GenerateEvents(config, begin, end);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

/// The events [begin, end) as the source generates them with seed `seed`.
std::shared_ptr<arrow::RecordBatch> Events(int64_t begin, int64_t end, int64_t seed = 0) {
  GeneratorConfig config;
  config.seed = seed;
  auto batch = GenerateEvents(config, begin, end);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return *batch;
}

/// Field `name` of struct column `column` of `batch`.
template <typename ArrayType>
const ArrayType& Field(const arrow::RecordBatch& batch, const std::string& column,
                       const std::string& name) {
  const auto& structs = static_cast<const arrow::StructArray&>(*batch.GetColumnByName(column));
  return static_cast<const ArrayType&>(*structs.GetFieldByName(name));
}

int64_t Long(const arrow::RecordBatch& batch, const std::string& column, const std::string& name,
             int64_t row) {
  return Field<arrow::Int64Array>(batch, column, name).Value(row);
}

std::string Text(const arrow::RecordBatch& batch, const std::string& column,
                 const std::string& name, int64_t row) {
  return std::string(Field<arrow::StringArray>(batch, column, name).GetView(row));
}

int64_t Millis(const arrow::RecordBatch& batch, const std::string& column,
               const std::string& name, int64_t row) {
  return Field<arrow::TimestampArray>(batch, column, name).Value(row) / 1000;
}

TEST(JavaRandomTest, DrawsAsJava) {
  JavaRandom random(0);
  EXPECT_EQ(random.NextInt(10), 0);
  EXPECT_EQ(random.NextInt(), -723955400);
  EXPECT_DOUBLE_EQ(random.NextDouble(), 0.24053641567148587);
}

TEST(NexmarkGeneratorTest, PersonsAreTheReferences) {
  auto first = ReferenceEvents(0, 1);
  EXPECT_EQ(static_cast<const arrow::Int32Array&>(*first->column(0)).Value(0), 0);
  EXPECT_EQ(Long(*first, "person", "id", 0), 1000);
  EXPECT_EQ(Text(*first, "person", "name", 0), "Peter Jones");
  EXPECT_EQ(Text(*first, "person", "emailAddress", 0), "nhd@xcat.com");
  EXPECT_EQ(Text(*first, "person", "creditCard", 0), "7241 7320 9143 4888");
  EXPECT_EQ(Text(*first, "person", "city", 0), "Portland");
  EXPECT_EQ(Text(*first, "person", "state", 0), "WY");
  EXPECT_EQ(Millis(*first, "person", "dateTime", 0), kBase);
  const std::string extra = Text(*first, "person", "extra", 0);
  EXPECT_EQ(extra.size(), 156u);
  EXPECT_EQ(extra.substr(0, 40), "WN_HS_bnpkkiwhwana_L^`KZjdgsid`K]MLU[aaO");
  EXPECT_TRUE(first->column(2)->IsNull(0));
  EXPECT_TRUE(first->column(3)->IsNull(0));

  auto later = ReferenceEvents(50, 51);
  EXPECT_EQ(Long(*later, "person", "id", 0), 1001);
  EXPECT_EQ(Text(*later, "person", "name", 0), "Sarah Smith");
  EXPECT_EQ(Text(*later, "person", "emailAddress", 0), "f  y@yumv.com");
  EXPECT_EQ(Text(*later, "person", "city", 0), "Los Angeles");
  EXPECT_EQ(Millis(*later, "person", "dateTime", 0), kBase + 5);
  EXPECT_EQ(Text(*later, "person", "extra", 0).size(), 153u);

  auto far = ReferenceEvents(100'000, 100'001);
  EXPECT_EQ(Long(*far, "person", "id", 0), 3000);
  EXPECT_EQ(Text(*far, "person", "name", 0), "Luke Shultz");
  EXPECT_EQ(Text(*far, "person", "emailAddress", 0), "xxaeen@q sp.com");
  EXPECT_EQ(Text(*far, "person", "creditCard", 0), "5463 9375 6338 6469");
  EXPECT_EQ(Millis(*far, "person", "dateTime", 0), kBase + 10'000);
}

TEST(NexmarkGeneratorTest, AuctionsAreTheReferences) {
  auto events = ReferenceEvents(1, 4);
  const int64_t ids[] = {1000, 1001, 1002};
  const char* items[] = {"wkx mgee", "z ck w", "gxycmhtobprpd"};
  const size_t descriptions[] = {24, 89, 54};
  const int64_t initial_bids[] = {28873, 25626290, 267};
  const int64_t reserves[] = {29448, 28805847, 422398};
  const int64_t expires[] = {11, 202, 1};
  const int64_t categories[] = {13, 12, 10};
  const size_t extras[] = {346, 319, 407};
  for (int64_t row = 0; row < 3; ++row) {
    SCOPED_TRACE(row);
    EXPECT_EQ(Long(*events, "auction", "id", row), ids[row]);
    EXPECT_EQ(Text(*events, "auction", "itemName", row), items[row]);
    EXPECT_EQ(Text(*events, "auction", "description", row).size(), descriptions[row]);
    EXPECT_EQ(Long(*events, "auction", "initialBid", row), initial_bids[row]);
    EXPECT_EQ(Long(*events, "auction", "reserve", row), reserves[row]);
    EXPECT_EQ(Millis(*events, "auction", "dateTime", row), kBase);
    EXPECT_EQ(Millis(*events, "auction", "expires", row), kBase + expires[row]);
    EXPECT_EQ(Long(*events, "auction", "seller", row), 1000);
    EXPECT_EQ(Long(*events, "auction", "category", row), categories[row]);
    EXPECT_EQ(Text(*events, "auction", "extra", row).size(), extras[row]);
  }
  auto far = ReferenceEvents(100'001, 100'002);
  EXPECT_EQ(Long(*far, "auction", "id", 0), 7000);
  EXPECT_EQ(Text(*far, "auction", "itemName", 0), "rlylkc");
  EXPECT_EQ(Millis(*far, "auction", "expires", 0), kBase + 10'000 + 105);
  EXPECT_EQ(Long(*far, "auction", "seller", 0), 3000);
}

TEST(NexmarkGeneratorTest, BidsAreTheReferences) {
  auto events = ReferenceEvents(4, 8);
  const int64_t bidders[] = {1001, 1009, 1001, 1001};
  const int64_t prices[] = {32530001, 468715, 300435, 3126206};
  for (int64_t row = 0; row < 4; ++row) {
    SCOPED_TRACE(row);
    EXPECT_EQ(Long(*events, "bid", "auction", row), 1000);
    EXPECT_EQ(Long(*events, "bid", "bidder", row), bidders[row]);
    EXPECT_EQ(Long(*events, "bid", "price", row), prices[row]);
    EXPECT_EQ(Millis(*events, "bid", "dateTime", row), kBase);
  }
  EXPECT_EQ(Text(*events, "bid", "extra", 0),
            "fdiysaV^]NLVsbolvyqwgticfdrwdyiyofziYMU\\Z`UaTQO][NX\\RM]WPYTOuwogvszlxjrcNOORM");
  EXPECT_EQ(Text(*events, "bid", "extra", 2),
            "H]ITTZpgivopmwyooulzilesQV_`]aPRWLaUtndhbtXXTTUXVJa_[_YXVJHVmidxhturdym");
  auto far = ReferenceEvents(100'004, 100'006);
  EXPECT_EQ(Long(*far, "bid", "auction", 0), 7000);
  EXPECT_EQ(Long(*far, "bid", "bidder", 0), 3001);
  EXPECT_EQ(Long(*far, "bid", "price", 0), 39013);
  EXPECT_EQ(Long(*far, "bid", "price", 1), 405949);
  const auto& times = static_cast<const arrow::TimestampArray&>(*far->GetColumnByName("dateTime"));
  EXPECT_EQ(times.Value(0) / 1000, kBase + 10'000);
}

TEST(NexmarkGeneratorTest, DistributionsAreTheBenchmarks) {
  constexpr int64_t kEvents = 500'000;
  auto events = Events(0, kEvents);
  const auto& types = static_cast<const arrow::Int32Array&>(*events->column(0));
  const auto& times = static_cast<const arrow::TimestampArray&>(*events->column(4));
  std::map<int32_t, int64_t> per_type;
  int64_t hot_auctions = 0, hot_bidders = 0, hot_sellers = 0, hot_channels = 0, bids = 0,
          auctions = 0, persons = 0;
  int64_t cheap = 0, middle = 0, dear = 0;
  double bid_bytes = 0, person_bytes = 0, auction_bytes = 0;
  std::map<std::string, int64_t> channels;
  std::map<int64_t, int64_t> window_hot, window_bids;  // per window of 2,000 events
  for (int64_t row = 0; row < kEvents; ++row) {
    ++per_type[types.Value(row)];
    // Event time: 10,000 events per second from the base time, 100 us apart.
    ASSERT_EQ(times.Value(row) / 1000, kBase + (row * 100) / 1000) << row;
    const int64_t epoch_first_person = ((row / 50) / 100) * 100 + 1000;
    const int64_t epoch_first_auction = ((3 * (row / 50) + 2) / 100) * 100 + 1000;
    switch (types.Value(row)) {
      case 0:
        ++persons;
        person_bytes += 8 + Text(*events, "person", "name", row).size() +
                        Text(*events, "person", "emailAddress", row).size() + 19 +
                        Text(*events, "person", "city", row).size() +
                        Text(*events, "person", "state", row).size() +
                        Text(*events, "person", "extra", row).size();
        break;
      case 1:
        ++auctions;
        hot_sellers += Long(*events, "auction", "seller", row) == epoch_first_person;
        auction_bytes += 48 + Text(*events, "auction", "itemName", row).size() +
                         Text(*events, "auction", "description", row).size() +
                         Text(*events, "auction", "extra", row).size();
        ASSERT_GT(Long(*events, "auction", "reserve", row),
                  Long(*events, "auction", "initialBid", row));
        ASSERT_GT(Millis(*events, "auction", "expires", row),
                  Millis(*events, "auction", "dateTime", row));
        break;
      case 2: {
        ++bids;
        const bool hot_auction = Long(*events, "bid", "auction", row) == epoch_first_auction;
        hot_auctions += hot_auction;
        window_hot[row / 2'000] += hot_auction;
        ++window_bids[row / 2'000];
        hot_bidders += Long(*events, "bid", "bidder", row) == epoch_first_person + 1;
        const std::string channel = Text(*events, "bid", "channel", row);
        ++channels[channel];
        hot_channels += channel.rfind("channel-", 0) != 0;
        EXPECT_EQ(Text(*events, "bid", "url", row).rfind("https://www.nexmark.com/", 0), 0u);
        const int64_t price = Long(*events, "bid", "price", row);
        ASSERT_GE(price, 100);
        ASSERT_LE(price, 100'000'000);
        (price < 10'000 ? cheap : price < 1'000'000 ? middle : dear) += 1;
        bid_bytes += 32 + Text(*events, "bid", "extra", row).size();
        break;
      }
    }
  }
  // 1 person, 3 auctions and 46 bids in every 50 events.
  EXPECT_EQ(per_type[0], kEvents / 50);
  EXPECT_EQ(per_type[1], 3 * kEvents / 50);
  EXPECT_EQ(per_type[2], 46 * kEvents / 50);
  // Half the bids go to the hot auction, three quarters come from the hot bidder and three
  // quarters of the auctions from the hot seller (plus the random picks that hit them).
  auto share = [](int64_t part, int64_t whole) {
    return static_cast<double>(part) / static_cast<double>(whole);
  };
  EXPECT_NEAR(share(hot_auctions, bids), 0.5, 0.015);
  // Also over a few events: each event draws independently of its neighbours.
  for (const auto& [window, hot] : window_hot) {
    ASSERT_NEAR(share(hot, window_bids[window]), 0.5, 0.06) << "events from " << window * 2'000;
  }
  EXPECT_NEAR(share(hot_bidders, bids), 0.75, 0.01);
  EXPECT_NEAR(share(hot_sellers, auctions), 0.75, 0.02);
  // Half the bids on the four hot channels, the rest over 10,000 others.
  EXPECT_NEAR(share(hot_channels, bids), 0.5, 0.01);
  for (const char* hot : {"Google", "Facebook", "Baidu", "Apple"}) {
    EXPECT_NEAR(share(channels[hot], bids), 0.125, 0.01) << hot;
  }
  EXPECT_GT(channels.size(), 9'900u);
  // Prices are log-uniform over [1 $, 1,000,000 $]: a third in each of the query buckets.
  EXPECT_NEAR(share(cheap, bids), 1.0 / 3, 0.01);
  EXPECT_NEAR(share(middle, bids), 1.0 / 3, 0.01);
  EXPECT_NEAR(share(dear, bids), 1.0 / 3, 0.01);
  // The average sizes the padding aims for: 100, 200 and 500 bytes.
  EXPECT_NEAR(bid_bytes / bids, 100, 2);
  EXPECT_NEAR(person_bytes / persons, 200, 4);
  EXPECT_NEAR(auction_bytes / auctions, 500, 10);
}

TEST(NexmarkGeneratorTest, TheSeedChoosesTheEvents) {
  auto first = Events(0, 500, 7);
  EXPECT_TRUE(first->Equals(*Events(0, 500, 7)));
  EXPECT_FALSE(first->column(3)->Equals(*Events(0, 500, 8)->column(3)));
}

TEST(NexmarkGeneratorTest, AnEventDependsOnItsIdAlone) {
  auto whole = Events(0, 2'000);
  auto part = Events(1'234, 1'300);
  for (int64_t row = 0; row < part->num_rows(); ++row) {
    for (int column = 0; column < whole->num_columns(); ++column) {
      ASSERT_TRUE(part->column(column)->RangeEquals(row, row + 1, 1'234 + row,
                                                    *whole->column(column)))
          << "event " << 1'234 + row << ", column " << column;
    }
  }
}

}  // namespace
}  // namespace sluice::sources::nexmark
