#include "sluice/sources/nexmark/nexmark_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/buffer_builder.h>
#include <arrow/type.h>

#include "sluice/sources/nexmark/java_random.h"
#include "sluice/types/spark_types.h"

namespace sluice::sources::nexmark {

namespace {

// The reference generator's constants.
constexpr int64_t kPersonProportion = 1;
constexpr int64_t kAuctionProportion = 3;
constexpr int64_t kTotalProportion = 50;
constexpr int64_t kFirstPersonId = 1000;
constexpr int64_t kFirstAuctionId = 1000;
constexpr int64_t kFirstCategoryId = 10;
constexpr int32_t kNumCategories = 5;
constexpr int64_t kNumActivePeople = 1000;
constexpr int64_t kNumInFlightAuctions = 100;
constexpr int64_t kPersonIdLead = 10;
constexpr int64_t kAuctionIdLead = 10;
constexpr int64_t kHotBlock = 100;  // hot auctions, sellers and bidders lead a block of 100 ids
constexpr int32_t kHotAuctionRatio = 2;
constexpr int32_t kHotSellersRatio = 4;
constexpr int32_t kHotBiddersRatio = 4;
constexpr int64_t kAvgPersonBytes = 200;
constexpr int64_t kAvgAuctionBytes = 500;
constexpr int64_t kAvgBidBytes = 100;
// The Flink suite's channels: half of the bids go to one of four hot ones.
constexpr int32_t kHotChannelsRatio = 2;
constexpr int32_t kNumChannels = 10'000;

constexpr std::array<std::string_view, 6> kStates = {"AZ", "CA", "ID", "OR", "WA", "WY"};
constexpr std::array<std::string_view, 10> kCities = {
    "Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland",
    "Bend",    "Redmond",     "Seattle",       "Kent",  "Cheyenne"};
constexpr std::array<std::string_view, 11> kFirstNames = {
    "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter",
    "Walter"};
constexpr std::array<std::string_view, 9> kLastNames = {
    "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"};
constexpr std::array<std::string_view, 4> kHotChannels = {"Google", "Facebook", "Baidu", "Apple"};

/// SplitMix64 of the id-th step from `seed`: seeds of consecutive ids share no bits.
int64_t MixedSeed(int64_t seed, int64_t id) {
  constexpr uint64_t kGamma = 0x9E3779B97F4A7C15ULL;
  uint64_t z = static_cast<uint64_t>(seed) * kGamma + (static_cast<uint64_t>(id) + 1) * kGamma;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return static_cast<int64_t>(z ^ (z >> 31));
}

// ---- ids -------------------------------------------------------------------------------------

int64_t LastBase0PersonId(int64_t event_id) {
  const int64_t epoch = event_id / kTotalProportion;
  int64_t offset = event_id % kTotalProportion;
  if (offset >= kPersonProportion) offset = kPersonProportion - 1;
  return epoch * kPersonProportion + offset;
}

int64_t LastBase0AuctionId(int64_t event_id) {
  int64_t epoch = event_id / kTotalProportion;
  int64_t offset = event_id % kTotalProportion;
  if (offset < kPersonProportion) {
    --epoch;  // a person: the last auction of the previous epoch
    offset = kAuctionProportion - 1;
  } else if (offset >= kPersonProportion + kAuctionProportion) {
    offset = kAuctionProportion - 1;  // a bid: the last auction of this epoch
  } else {
    offset -= kPersonProportion;
  }
  return epoch * kAuctionProportion + offset;
}

/// A uniform draw in [0, n), as the reference draws longs.
int64_t NextLong(JavaRandom& random, int64_t n) {
  if (n < INT32_MAX) return random.NextInt(static_cast<int32_t>(n));
  const int64_t r = random.NextLong() % n;
  return r < 0 ? -r : r;
}

/// A random active person, or one of the next few to come.
int64_t NextBase0PersonId(int64_t event_id, JavaRandom& random) {
  const int64_t num_people = LastBase0PersonId(event_id) + 1;
  const int64_t active = std::min(num_people, kNumActivePeople);
  return num_people - active + NextLong(random, active + kPersonIdLead);
}

/// A random auction in flight, or one of the next few to come.
int64_t NextBase0AuctionId(int64_t event_id, JavaRandom& random) {
  const int64_t max_auction = LastBase0AuctionId(event_id);
  const int64_t min_auction = std::max<int64_t>(max_auction - kNumInFlightAuctions, 0);
  return min_auction + NextLong(random, max_auction - min_auction + 1 + kAuctionIdLead);
}

// ---- values ----------------------------------------------------------------------------------

/// Cents, log-uniform in [100, 100,000,000].
int64_t NextPrice(JavaRandom& random) {
  return static_cast<int64_t>(std::floor(std::pow(10.0, random.NextDouble() * 6.0) * 100.0 + 0.5));
}

/// 3 to max_length - 1 letters, each a `special` with probability 1/13, then trimmed of
/// spaces at both ends (as Java's String.trim()).
std::string NextString(JavaRandom& random, int32_t max_length, char special = ' ') {
  const int32_t length = 3 + random.NextInt(max_length - 3);
  std::string text;
  text.reserve(length);
  for (int32_t i = 0; i < length; ++i) {
    text.push_back(random.NextInt(13) == 0 ? special
                                           : static_cast<char>('a' + random.NextInt(26)));
  }
  const size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

/// The two letters that two steps of Java's truncating `% 26` and `/ 26` draw from an int,
/// for every value of that int `% 676` (from -675 to 675, at index + 675): one lookup and one
/// division by 676 replace two of each.
constexpr std::array<std::array<char, 2>, 1351> kLetterPairs = [] {
  std::array<std::array<char, 2>, 1351> pairs{};
  for (int32_t m = -675; m <= 675; ++m) {
    pairs[static_cast<size_t>(m + 675)] = {static_cast<char>('a' + m % 26),
                                           static_cast<char>('a' + m / 26)};
  }
  return pairs;
}();

/// Exactly `length` characters, six from each random int by Java's truncating division, so
/// the characters range over 'H'..'z'.
void AppendExactString(JavaRandom& random, int64_t length, std::string* out) {
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(length));
  char* next = out->data() + start;
  // Six letters per random int (26^6 < 2^31), as Beam draws them: Java's % and / of a negative
  // int give letters below 'a'.
  for (int64_t left = length; left > 0;) {
    int32_t bits = random.NextInt();
    const int64_t letters = left < 6 ? left : 6;
    int64_t k = 0;
    for (; k + 2 <= letters; k += 2) {
      const std::array<char, 2>& pair = kLetterPairs[static_cast<size_t>(bits % 676 + 675)];
      next[0] = pair[0];
      next[1] = pair[1];
      next += 2;
      bits /= 676;
    }
    if (k < letters) *next++ = static_cast<char>('a' + bits % 26);
    left -= letters;
  }
}

/// Padding that brings an event of `current_size` to `average_size` on average: within 20% of
/// the difference.
void AppendExtra(JavaRandom& random, int64_t current_size, int64_t average_size,
                 std::string* out) {
  if (current_size > average_size) return;
  const int64_t wanted = average_size - current_size;
  const auto delta = static_cast<int32_t>(std::floor(static_cast<double>(wanted) * 0.2 + 0.5));
  const int64_t size = wanted - delta + (delta == 0 ? 0 : random.NextInt(2 * delta));
  AppendExactString(random, size, out);
}

/// How long an auction runs: on average as long as the next 100 auctions take to appear.
int64_t NextAuctionLengthMs(const GeneratorConfig& config, int64_t event_number,
                            int64_t timestamp_ms, JavaRandom& random) {
  constexpr int64_t kEventsForAuctions =
      (kNumInFlightAuctions * kTotalProportion) / kAuctionProportion;
  const int64_t horizon_ms = config.TimestampOf(event_number + kEventsForAuctions) - timestamp_ms;
  return 1 + NextLong(random, std::max<int64_t>(horizon_ms * 2, 1));
}

/// The Flink suite's channels and their urls, drawn once from a fixed seed.
struct Channels {
  std::array<std::string, 4> hot_urls;
  std::vector<std::string> names;
  std::vector<std::string> urls;

  static std::string BaseUrl(JavaRandom& random) {
    return "https://www.nexmark.com/" + NextString(random, 5, '_') + "/" +
           NextString(random, 5, '_') + "/" + NextString(random, 5, '_') + "/item.htm?query=1";
  }

  Channels() {
    JavaRandom random(0);
    for (auto& url : hot_urls) url = BaseUrl(random);
    names.reserve(kNumChannels);
    urls.reserve(kNumChannels);
    for (int32_t i = 0; i < kNumChannels; ++i) {
      std::string url = BaseUrl(random);
      if (random.NextInt(10) > 0) {
        // Math.abs(Integer.reverse(i)): the reversed bits as a Java int, whose absolute value
        // overflows for the one that is the smallest int.
        uint32_t reversed = 0;
        for (int bit = 0; bit < 32; ++bit) {
          if ((static_cast<uint32_t>(i) >> bit) & 1u) reversed |= 1u << (31 - bit);
        }
        const auto value = static_cast<int32_t>(reversed);
        const int64_t shown = value == INT32_MIN ? value : std::abs(static_cast<int64_t>(value));
        url += "&channel_id=" + std::to_string(shown);
      }
      names.push_back("channel-" + std::to_string(i));
      urls.push_back(std::move(url));
    }
  }

  static const Channels& Get() {
    static const Channels channels;
    return channels;
  }
};

// ---- rows ------------------------------------------------------------------------------------

arrow::FieldVector PersonFields() {
  auto ts = types::TimestampLtzType();
  return {arrow::field("id", arrow::int64()),       arrow::field("name", arrow::utf8()),
          arrow::field("emailAddress", arrow::utf8()), arrow::field("creditCard", arrow::utf8()),
          arrow::field("city", arrow::utf8()),     arrow::field("state", arrow::utf8()),
          arrow::field("dateTime", ts),            arrow::field("extra", arrow::utf8())};
}

arrow::FieldVector AuctionFields() {
  auto ts = types::TimestampLtzType();
  return {arrow::field("id", arrow::int64()),         arrow::field("itemName", arrow::utf8()),
          arrow::field("description", arrow::utf8()), arrow::field("initialBid", arrow::int64()),
          arrow::field("reserve", arrow::int64()),    arrow::field("dateTime", ts),
          arrow::field("expires", ts),                arrow::field("seller", arrow::int64()),
          arrow::field("category", arrow::int64()),   arrow::field("extra", arrow::utf8())};
}

arrow::FieldVector BidFields() {
  auto ts = types::TimestampLtzType();
  return {arrow::field("auction", arrow::int64()), arrow::field("bidder", arrow::int64()),
          arrow::field("price", arrow::int64()),   arrow::field("channel", arrow::utf8()),
          arrow::field("url", arrow::utf8()),      arrow::field("dateTime", ts),
          arrow::field("extra", arrow::utf8())};
}

/// One column of fixed-width values (longs, timestamps, ints), written straight into its
/// buffer: the batch's row count is known, so every append is a plain store.
template <typename T>
class FixedColumn {
 public:
  explicit FixedColumn(arrow::MemoryPool* pool) : values_(pool) {}
  arrow::Status Reserve(int64_t rows) { return values_.Reserve(rows); }
  void Append(T value) { values_.UnsafeAppend(value); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish(const std::shared_ptr<arrow::DataType>& type,
                                                      int64_t rows) {
    ARROW_ASSIGN_OR_RAISE(auto values, values_.Finish());
    return arrow::MakeArray(arrow::ArrayData::Make(type, rows, {nullptr, std::move(values)}, 0));
  }

 private:
  arrow::TypedBufferBuilder<T> values_;
};

/// One string column written straight into its offsets and bytes.
class TextColumn {
 public:
  explicit TextColumn(arrow::MemoryPool* pool) : offsets_(pool), bytes_(pool) {}
  arrow::Status Reserve(int64_t rows, int64_t bytes) {
    ARROW_RETURN_NOT_OK(offsets_.Reserve(rows + 1));
    offsets_.UnsafeAppend(0);
    return bytes_.Reserve(bytes);
  }
  arrow::Status Append(std::string_view value) {
    ARROW_RETURN_NOT_OK(bytes_.Append(value.data(), static_cast<int64_t>(value.size())));
    return AppendOffset();
  }
  /// An empty string, what the fields of a null struct hold.
  void AppendEmpty() { offsets_.UnsafeAppend(static_cast<int32_t>(bytes_.length())); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish(int64_t rows) {
    ARROW_ASSIGN_OR_RAISE(auto offsets, offsets_.Finish());
    ARROW_ASSIGN_OR_RAISE(auto bytes, bytes_.Finish());
    return arrow::MakeArray(arrow::ArrayData::Make(
        arrow::utf8(), rows, {nullptr, std::move(offsets), std::move(bytes)}, 0));
  }

 private:
  arrow::Status AppendOffset() {
    if (bytes_.length() > std::numeric_limits<int32_t>::max()) {
      return arrow::Status::CapacityError(
          "A batch of Nexmark events holds more than 2 GiB of one string field: lower "
          "maxEventsPerTrigger");
    }
    offsets_.UnsafeAppend(static_cast<int32_t>(bytes_.length()));
    return arrow::Status::OK();
  }

  arrow::TypedBufferBuilder<int32_t> offsets_;
  arrow::BufferBuilder bytes_;
};

/// One struct column's rows, its fields written straight into their buffers. The struct is
/// null in the rows of other event types, where its fields hold zeros and empty strings.
/// Building the arrays with Arrow's builders instead spent a quarter of the generator's time
/// on the null rows alone.
class StructRows {
 public:
  StructRows(arrow::FieldVector fields, arrow::MemoryPool* pool)
      : type_(arrow::struct_(fields)), fields_(std::move(fields)), validity_(pool) {
    for (const auto& field : fields_) {
      if (field->type()->id() == arrow::Type::STRING) {
        texts_.emplace_back(pool);
        column_of_.push_back(static_cast<int>(texts_.size()) - 1);
      } else {
        longs_.emplace_back(pool);
        column_of_.push_back(static_cast<int>(longs_.size()) - 1);
      }
    }
  }

  /// Room for `rows` rows, and `text_bytes` of each text field's bytes (the struct is null
  /// in the rows of other event types, so its fields then hold nothing).
  arrow::Status Reserve(int64_t rows, const std::vector<int64_t>& text_bytes) {
    ARROW_RETURN_NOT_OK(validity_.Reserve(rows));
    for (size_t f = 0; f < fields_.size(); ++f) {
      if (IsText(f)) {
        ARROW_RETURN_NOT_OK(texts_[column_of_[f]].Reserve(rows, text_bytes[f]));
      } else {
        ARROW_RETURN_NOT_OK(longs_[column_of_[f]].Reserve(rows));
      }
    }
    return arrow::Status::OK();
  }
  void Begin() { validity_.UnsafeAppend(true); }
  void Null() {
    validity_.UnsafeAppend(false);
    for (auto& column : longs_) column.Append(0);
    for (auto& column : texts_) column.AppendEmpty();
  }

  void Long(int field, int64_t value) { longs_[column_of_[field]].Append(value); }
  void Time(int field, int64_t millis) { Long(field, millis * 1000); }
  arrow::Status Text(int field, std::string_view value) {
    return texts_[column_of_[field]].Append(value);
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finish(int64_t rows) {
    arrow::ArrayVector children;
    for (size_t f = 0; f < fields_.size(); ++f) {
      ARROW_ASSIGN_OR_RAISE(auto child,
                            IsText(f) ? texts_[column_of_[f]].Finish(rows)
                                      : longs_[column_of_[f]].Finish(fields_[f]->type(), rows));
      children.push_back(std::move(child));
    }
    const int64_t nulls = validity_.false_count();
    ARROW_ASSIGN_OR_RAISE(auto validity, validity_.Finish());
    return std::make_shared<arrow::StructArray>(type_, rows, std::move(children),
                                                std::move(validity), nulls);
  }

 private:
  bool IsText(size_t field) const { return fields_[field]->type()->id() == arrow::Type::STRING; }

  std::shared_ptr<arrow::DataType> type_;
  arrow::FieldVector fields_;
  arrow::TypedBufferBuilder<bool> validity_;
  // Each field's column, by kind; column_of_ says which of its kind a field is.
  std::vector<FixedColumn<int64_t>> longs_;
  std::vector<TextColumn> texts_;
  std::vector<int> column_of_;
};

class EventRows {
 public:
  EventRows(const GeneratorConfig& config, arrow::MemoryPool* pool)
      : config_(config),
        person_(PersonFields(), pool),
        auction_(AuctionFields(), pool),
        bid_(BidFields(), pool),
        types_(pool),
        times_(pool),
        channels_(Channels::Get()) {}

  arrow::Status Reserve(int64_t rows) {
    // The fields' average sizes (the extra fields pad each event type to its average size),
    // rounded up, times the share of each event type.
    const int64_t persons = rows * kPersonProportion / kTotalProportion + 1;
    const int64_t auctions = rows * kAuctionProportion / kTotalProportion + 1;
    const int64_t bids = rows - persons - auctions + 2;
    ARROW_RETURN_NOT_OK(person_.Reserve(rows, {0, 16 * persons, 24 * persons, 19 * persons,
                                               12 * persons, 2 * persons, 0,
                                               kAvgPersonBytes * persons}));
    ARROW_RETURN_NOT_OK(auction_.Reserve(rows, {0, 20 * auctions, 100 * auctions, 0, 0, 0, 0, 0,
                                                0, kAvgAuctionBytes * auctions}));
    ARROW_RETURN_NOT_OK(bid_.Reserve(rows, {0, 0, 0, 16 * bids, 96 * bids, 0,
                                            kAvgBidBytes * bids}));
    ARROW_RETURN_NOT_OK(types_.Reserve(rows));
    return times_.Reserve(rows);
  }

  /// Event `id`: with one generator starting at 0, its number is its id.
  arrow::Status Append(int64_t id) {
    const int64_t timestamp = config_.TimestampOf(id);
    JavaRandom random(config_.reference_seeds ? id : MixedSeed(config_.seed, id));
    const EventType type = TypeOf(id);
    types_.Append(static_cast<int32_t>(type));
    times_.Append(timestamp * 1000);
    switch (type) {
      case EventType::kPerson:
        auction_.Null();
        bid_.Null();
        return Person(id, timestamp, random);
      case EventType::kAuction:
        person_.Null();
        bid_.Null();
        return Auction(id, timestamp, random);
      case EventType::kBid:
        person_.Null();
        auction_.Null();
        return Bid(id, timestamp, random);
    }
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Finish(int64_t rows) {
    arrow::ArrayVector columns(5);
    ARROW_ASSIGN_OR_RAISE(columns[0], types_.Finish(arrow::int32(), rows));
    ARROW_ASSIGN_OR_RAISE(columns[1], person_.Finish(rows));
    ARROW_ASSIGN_OR_RAISE(columns[2], auction_.Finish(rows));
    ARROW_ASSIGN_OR_RAISE(columns[3], bid_.Finish(rows));
    ARROW_ASSIGN_OR_RAISE(columns[4], times_.Finish(types::TimestampLtzType(), rows));
    return arrow::RecordBatch::Make(NexmarkSchema(), rows, std::move(columns));
  }

 private:
  arrow::Status Person(int64_t id, int64_t timestamp, JavaRandom& random) {
    std::string name(kFirstNames[random.NextInt(static_cast<int32_t>(kFirstNames.size()))]);
    name += ' ';
    name += kLastNames[random.NextInt(static_cast<int32_t>(kLastNames.size()))];
    std::string email = NextString(random, 7);
    email += '@';
    email += NextString(random, 5);
    email += ".com";
    int32_t groups[4];  // drawn in order: arguments would be evaluated in any order
    for (int32_t& group : groups) group = random.NextInt(10000);
    char card[20];
    std::snprintf(card, sizeof(card), "%04d %04d %04d %04d", groups[0], groups[1], groups[2],
                  groups[3]);
    const std::string_view city = kCities[random.NextInt(static_cast<int32_t>(kCities.size()))];
    const std::string_view state = kStates[random.NextInt(static_cast<int32_t>(kStates.size()))];
    const int64_t size = 8 + static_cast<int64_t>(name.size() + email.size() + 19 +
                                                  city.size() + state.size());
    extra_.clear();
    AppendExtra(random, size, kAvgPersonBytes, &extra_);
    person_.Begin();
    person_.Long(0, LastBase0PersonId(id) + kFirstPersonId);
    ARROW_RETURN_NOT_OK(person_.Text(1, name));
    ARROW_RETURN_NOT_OK(person_.Text(2, email));
    ARROW_RETURN_NOT_OK(person_.Text(3, std::string_view(card, 19)));
    ARROW_RETURN_NOT_OK(person_.Text(4, city));
    ARROW_RETURN_NOT_OK(person_.Text(5, state));
    person_.Time(6, timestamp);
    return person_.Text(7, extra_);
  }

  arrow::Status Auction(int64_t id, int64_t timestamp, JavaRandom& random) {
    int64_t seller;
    if (random.NextInt(kHotSellersRatio) > 0) {
      seller = (LastBase0PersonId(id) / kHotBlock) * kHotBlock;  // the block's first person
    } else {
      seller = NextBase0PersonId(id, random);
    }
    const int64_t category = kFirstCategoryId + random.NextInt(kNumCategories);
    const int64_t initial_bid = NextPrice(random);
    const int64_t expires = timestamp + NextAuctionLengthMs(config_, id, timestamp, random);
    const std::string item_name = NextString(random, 20);
    const std::string description = NextString(random, 100);
    const int64_t reserve = initial_bid + NextPrice(random);
    const int64_t size = 8 + static_cast<int64_t>(item_name.size() + description.size()) + 40;
    extra_.clear();
    AppendExtra(random, size, kAvgAuctionBytes, &extra_);
    auction_.Begin();
    auction_.Long(0, LastBase0AuctionId(id) + kFirstAuctionId);
    ARROW_RETURN_NOT_OK(auction_.Text(1, item_name));
    ARROW_RETURN_NOT_OK(auction_.Text(2, description));
    auction_.Long(3, initial_bid);
    auction_.Long(4, reserve);
    auction_.Time(5, timestamp);
    auction_.Time(6, expires);
    auction_.Long(7, seller + kFirstPersonId);
    auction_.Long(8, category);
    return auction_.Text(9, extra_);
  }

  arrow::Status Bid(int64_t id, int64_t timestamp, JavaRandom& random) {
    int64_t auction;
    if (random.NextInt(kHotAuctionRatio) > 0) {
      auction = (LastBase0AuctionId(id) / kHotBlock) * kHotBlock;  // the block's first auction
    } else {
      auction = NextBase0AuctionId(id, random);
    }
    int64_t bidder;
    if (random.NextInt(kHotBiddersRatio) > 0) {
      // The block's second person, so hot bidders are not hot sellers.
      bidder = (LastBase0PersonId(id) / kHotBlock) * kHotBlock + 1;
    } else {
      bidder = NextBase0PersonId(id, random);
    }
    const int64_t price = NextPrice(random);
    extra_.clear();
    AppendExtra(random, 32, kAvgBidBytes, &extra_);
    std::string_view channel, url;
    if (random.NextInt(kHotChannelsRatio) > 0) {
      const int32_t hot = random.NextInt(static_cast<int32_t>(kHotChannels.size()));
      channel = kHotChannels[hot];
      url = channels_.hot_urls[hot];
    } else {
      const int32_t other = random.NextInt(kNumChannels);
      channel = channels_.names[other];
      url = channels_.urls[other];
    }
    bid_.Begin();
    bid_.Long(0, auction + kFirstAuctionId);
    bid_.Long(1, bidder + kFirstPersonId);
    bid_.Long(2, price);
    ARROW_RETURN_NOT_OK(bid_.Text(3, channel));
    ARROW_RETURN_NOT_OK(bid_.Text(4, url));
    bid_.Time(5, timestamp);
    return bid_.Text(6, extra_);
  }

  const GeneratorConfig& config_;
  StructRows person_;
  StructRows auction_;
  StructRows bid_;
  FixedColumn<int32_t> types_;
  FixedColumn<int64_t> times_;
  const Channels& channels_;
  std::string extra_;
};

}  // namespace

int64_t GeneratorConfig::TimestampOf(int64_t event_number) const {
  return base_time_ms +
         static_cast<int64_t>(static_cast<double>(event_number) * inter_event_delay_us) / 1000;
}

EventType TypeOf(int64_t event_id) {
  const int64_t rem = event_id % kTotalProportion;
  if (rem < kPersonProportion) return EventType::kPerson;
  if (rem < kPersonProportion + kAuctionProportion) return EventType::kAuction;
  return EventType::kBid;
}

std::shared_ptr<arrow::Schema> NexmarkSchema() {
  static const auto schema = arrow::schema({
      arrow::field("event_type", arrow::int32()),
      arrow::field("person", arrow::struct_(PersonFields())),
      arrow::field("auction", arrow::struct_(AuctionFields())),
      arrow::field("bid", arrow::struct_(BidFields())),
      arrow::field("dateTime", types::TimestampLtzType()),
  });
  return schema;
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> GenerateEvents(const GeneratorConfig& config,
                                                                  int64_t begin, int64_t end,
                                                                  arrow::MemoryPool* pool) {
  EventRows rows(config, pool);
  ARROW_RETURN_NOT_OK(rows.Reserve(end - begin));
  for (int64_t id = begin; id < end; ++id) ARROW_RETURN_NOT_OK(rows.Append(id));
  return rows.Finish(end - begin);
}

}  // namespace sluice::sources::nexmark
