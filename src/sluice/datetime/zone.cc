#include "sluice/datetime/zone.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <arrow/status.h>

#include "sluice/datetime/calendar.h"

namespace sluice::datetime {

namespace {

// Transitions from a zone's recurring rule are generated up to this year; later instants keep
// the last period's offset.
constexpr int64_t kLastRuleYear = 2400;

// Java's ZoneId.SHORT_IDS.
const std::map<std::string_view, std::string_view>& ShortIds() {
  static const std::map<std::string_view, std::string_view> ids = {
      {"ACT", "Australia/Darwin"},
      {"AET", "Australia/Sydney"},
      {"AGT", "America/Argentina/Buenos_Aires"},
      {"ART", "Africa/Cairo"},
      {"AST", "America/Anchorage"},
      {"BET", "America/Sao_Paulo"},
      {"BST", "Asia/Dhaka"},
      {"CAT", "Africa/Harare"},
      {"CNT", "America/St_Johns"},
      {"CST", "America/Chicago"},
      {"CTT", "Asia/Shanghai"},
      {"EAT", "Africa/Addis_Ababa"},
      {"ECT", "Europe/Paris"},
      {"IET", "America/Indiana/Indianapolis"},
      {"IST", "Asia/Kolkata"},
      {"JST", "Asia/Tokyo"},
      {"MIT", "Pacific/Apia"},
      {"NET", "Asia/Yerevan"},
      {"NST", "Pacific/Auckland"},
      {"PLT", "Asia/Karachi"},
      {"PNT", "America/Phoenix"},
      {"PRT", "America/Puerto_Rico"},
      {"PST", "America/Los_Angeles"},
      {"SST", "Pacific/Guadalcanal"},
      {"VST", "Asia/Ho_Chi_Minh"},
      {"EST", "-05:00"},
      {"MST", "-07:00"},
      {"HST", "-10:00"},
  };
  return ids;
}

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int Number(std::string_view digits) {
  int value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

std::string TwoDigits(int value) {
  return std::string{static_cast<char>('0' + value / 10), static_cast<char>('0' + value % 10)};
}

// A reader of the big-endian fields of a TZif file.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool Has(size_t n) const { return pos_ + n <= data_.size(); }
  int64_t Signed(int bytes) {
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) value = (value << 8) | static_cast<uint8_t>(data_[pos_ + i]);
    pos_ += bytes;
    if (bytes == 4) return static_cast<int32_t>(static_cast<uint32_t>(value));
    return static_cast<int64_t>(value);
  }
  uint8_t Byte() { return static_cast<uint8_t>(data_[pos_++]); }
  void Skip(size_t n) { pos_ += n; }
  size_t pos() const { return pos_; }
  std::string_view Rest() const { return data_.substr(pos_); }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

// A POSIX TZ rule date: Mm.w.d, Jn or n, with the local time of day it takes effect.
struct RuleDate {
  char kind = 0;  // 'M', 'J' or 'N'
  int month = 0, week = 0, weekday = 0, day = 0;
  int64_t time = 7200;
};

// The POSIX TZ string of a TZif footer: "PST8PDT,M3.2.0,M11.1.0".
struct PosixRule {
  std::string std_name, dst_name;
  int32_t std_offset = 0, dst_offset = 0;
  bool has_dst = false;
  RuleDate start, end;
};

class PosixParser {
 public:
  explicit PosixParser(std::string_view text) : text_(text) {}

  bool Parse(PosixRule* rule) {
    if (!Name(&rule->std_name) || !Offset(&rule->std_offset)) return false;
    rule->std_offset = -rule->std_offset;
    if (pos_ == text_.size()) return true;
    if (!Name(&rule->dst_name)) return false;
    rule->has_dst = true;
    rule->dst_offset = rule->std_offset + 3600;
    if (pos_ < text_.size() && text_[pos_] != ',') {
      if (!Offset(&rule->dst_offset)) return false;
      rule->dst_offset = -rule->dst_offset;
    }
    if (pos_ == text_.size() || text_[pos_] != ',') return false;
    ++pos_;
    if (!Date(&rule->start) || pos_ >= text_.size() || text_[pos_] != ',') return false;
    ++pos_;
    return Date(&rule->end) && pos_ == text_.size();
  }

 private:
  bool Name(std::string* name) {
    if (pos_ < text_.size() && text_[pos_] == '<') {
      const size_t close = text_.find('>', pos_);
      if (close == std::string_view::npos) return false;
      *name = std::string(text_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
      return true;
    }
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isalpha(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    *name = std::string(text_.substr(start, pos_ - start));
    return pos_ - start >= 3;
  }
  bool Integer(int64_t* value) {
    const size_t start = pos_;
    int64_t v = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      // Capped short of overflow; no offset or rule of a zone comes near it.
      if (v < 1'000'000'000'000) v = v * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    *value = v;
    return pos_ > start;
  }
  // [+-]hh[:mm[:ss]] in seconds.
  bool Time(int64_t* seconds) {
    int64_t sign = 1;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) {
      sign = text_[pos_++] == '-' ? -1 : 1;
    }
    int64_t hours = 0, minutes = 0, secs = 0;
    if (!Integer(&hours)) return false;
    if (pos_ < text_.size() && text_[pos_] == ':') {
      ++pos_;
      if (!Integer(&minutes)) return false;
      if (pos_ < text_.size() && text_[pos_] == ':') {
        ++pos_;
        if (!Integer(&secs)) return false;
      }
    }
    *seconds = sign * (hours * 3600 + minutes * 60 + secs);
    return true;
  }
  bool Offset(int32_t* seconds) {
    int64_t value = 0;
    if (!Time(&value)) return false;
    *seconds = static_cast<int32_t>(value);
    return true;
  }
  bool Date(RuleDate* date) {
    if (pos_ >= text_.size()) return false;
    int64_t a = 0, b = 0, c = 0;
    if (text_[pos_] == 'M') {
      ++pos_;
      if (!Integer(&a) || pos_ >= text_.size() || text_[pos_++] != '.' || !Integer(&b) ||
          pos_ >= text_.size() || text_[pos_++] != '.' || !Integer(&c)) {
        return false;
      }
      date->kind = 'M';
      date->month = static_cast<int>(a);
      date->week = static_cast<int>(b);
      date->weekday = static_cast<int>(c);
      if (date->month < 1 || date->month > 12 || date->week < 1 || date->week > 5) return false;
    } else if (text_[pos_] == 'J') {
      ++pos_;
      if (!Integer(&a)) return false;
      date->kind = 'J';
      date->day = static_cast<int>(a);
    } else {
      if (!Integer(&a)) return false;
      date->kind = 'N';
      date->day = static_cast<int>(a);
    }
    if (pos_ < text_.size() && text_[pos_] == '/') {
      ++pos_;
      if (!Time(&date->time)) return false;
    }
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Local seconds (in the offset in force before the change) of a rule date in `year`.
int64_t RuleLocalSeconds(const RuleDate& date, int64_t year) {
  int64_t days = 0;
  if (date.kind == 'M') {
    const int64_t first = DaysFromCivil(year, date.month, 1);
    // Weekday of the first of the month, 0 = Sunday.
    const int64_t first_weekday = IsoDayOfWeek(first) % 7;
    int64_t day = first + FloorMod(date.weekday - first_weekday, 7) + 7 * (date.week - 1);
    const int64_t month_end = first + DaysInMonth(year, date.month);
    while (day >= month_end) day -= 7;
    days = day;
  } else if (date.kind == 'J') {
    // 1..365, never counting February 29.
    int64_t day = date.day - 1;
    if (IsLeapYear(year) && date.day >= 60) ++day;
    days = DaysFromCivil(year, 1, 1) + day;
  } else {
    days = DaysFromCivil(year, 1, 1) + date.day;
  }
  return days * kSecondsPerDay + date.time;
}

std::string ZoneInfoDirectory() {
  const char* dir = std::getenv("TZDIR");
  return dir != nullptr && *dir != '\0' ? std::string(dir) : std::string("/usr/share/zoneinfo");
}

bool ValidRegionId(std::string_view id) {
  if (id.empty() || !std::isalpha(static_cast<unsigned char>(id[0]))) return false;
  if (id.find("..") != std::string_view::npos) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-' ||
           c == '+' || c == '~' || c == '.';
  });
}

}  // namespace

struct TimeZoneLoader {
  static arrow::Result<std::shared_ptr<TimeZone>> Load(const std::string& id) {
    std::ifstream in(ZoneInfoDirectory() + "/" + id, std::ios::binary);
    if (!in) return arrow::Status::Invalid("Unknown time zone id: ", id);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string data = buffer.str();
    if (data.size() < 44 || data.compare(0, 4, "TZif") != 0) {
      return arrow::Status::Invalid("Unknown time zone id: ", id);
    }
    auto zone = std::make_shared<TimeZone>();
    zone->id_ = id;
    Reader reader(data);
    const char version = data[4];
    auto read_block = [&](int time_bytes, bool keep) -> bool {
      reader.Skip(20);
      if (!reader.Has(24)) return false;
      const int64_t isutcnt = reader.Signed(4), isstdcnt = reader.Signed(4),
                    leapcnt = reader.Signed(4), timecnt = reader.Signed(4),
                    typecnt = reader.Signed(4), charcnt = reader.Signed(4);
      const size_t size = timecnt * time_bytes + timecnt + typecnt * 6 + charcnt +
                          leapcnt * (time_bytes + 4) + isstdcnt + isutcnt;
      if (!reader.Has(size) || typecnt <= 0) return false;
      if (!keep) {
        reader.Skip(size);
        return true;
      }
      std::vector<int64_t> times(timecnt);
      for (auto& t : times) t = reader.Signed(time_bytes);
      std::vector<uint8_t> indices(timecnt);
      for (auto& i : indices) i = reader.Byte();
      struct Type {
        int32_t offset;
        uint8_t abbreviation_index;
      };
      std::vector<Type> types(typecnt);
      for (auto& type : types) {
        type.offset = static_cast<int32_t>(reader.Signed(4));
        reader.Byte();
        type.abbreviation_index = reader.Byte();
      }
      const std::string chars(reader.Rest().substr(0, charcnt));
      reader.Skip(charcnt + leapcnt * (time_bytes + 4) + isstdcnt + isutcnt);
      auto abbreviation = [&](uint8_t index) -> int32_t {
        std::string name = index < chars.size() ? std::string(chars.c_str() + index) : "";
        for (size_t i = 0; i < zone->abbreviations_.size(); ++i) {
          if (zone->abbreviations_[i] == name) return static_cast<int32_t>(i);
        }
        zone->abbreviations_.push_back(std::move(name));
        return static_cast<int32_t>(zone->abbreviations_.size() - 1);
      };
      zone->periods_.push_back({types[0].offset, abbreviation(types[0].abbreviation_index)});
      for (int64_t i = 0; i < timecnt; ++i) {
        if (indices[i] >= types.size()) return false;
        const Type& type = types[indices[i]];
        zone->transitions_.push_back(times[i]);
        zone->periods_.push_back({type.offset, abbreviation(type.abbreviation_index)});
      }
      return true;
    };
    if (version >= '2') {
      if (!read_block(4, false) || !read_block(8, true)) {
        return arrow::Status::Invalid("Corrupt time zone file for ", id);
      }
      std::string_view footer = reader.Rest();
      if (!footer.empty() && footer[0] == '\n') {
        footer.remove_prefix(1);
        footer = footer.substr(0, footer.find('\n'));
        ExtendWithRule(zone.get(), footer);
      }
    } else if (!read_block(4, true)) {
      return arrow::Status::Invalid("Corrupt time zone file for ", id);
    }
    Finish(zone.get());
    return zone;
  }

  static void ExtendWithRule(TimeZone* zone, std::string_view text) {
    PosixRule rule;
    if (text.empty() || !PosixParser(text).Parse(&rule) || !rule.has_dst) return;
    auto abbreviation = [&](const std::string& name) -> int32_t {
      for (size_t i = 0; i < zone->abbreviations_.size(); ++i) {
        if (zone->abbreviations_[i] == name) return static_cast<int32_t>(i);
      }
      zone->abbreviations_.push_back(name);
      return static_cast<int32_t>(zone->abbreviations_.size() - 1);
    };
    const int32_t std_abbreviation = abbreviation(rule.std_name);
    const int32_t dst_abbreviation = abbreviation(rule.dst_name);
    const int64_t last = zone->transitions_.empty() ? INT64_MIN : zone->transitions_.back();
    const int64_t first_year =
        zone->transitions_.empty() ? 1970 : CivilFromDays(FloorDiv(last, kSecondsPerDay)).year;
    for (int64_t year = first_year; year <= kLastRuleYear; ++year) {
      // DST starts at a local standard time and ends at a local daylight time.
      const int64_t start = RuleLocalSeconds(rule.start, year) - rule.std_offset;
      const int64_t end = RuleLocalSeconds(rule.end, year) - rule.dst_offset;
      std::pair<int64_t, TimeZone::Period> changes[2] = {
          {start, {rule.dst_offset, dst_abbreviation}},
          {end, {rule.std_offset, std_abbreviation}}};
      if (end < start) std::swap(changes[0], changes[1]);
      for (const auto& [when, period] : changes) {
        if (when <= last || (!zone->transitions_.empty() && when <= zone->transitions_.back())) {
          continue;
        }
        zone->transitions_.push_back(when);
        zone->periods_.push_back(period);
      }
    }
  }

  static void Finish(TimeZone* zone) {
    zone->local_transitions_.resize(zone->transitions_.size());
    for (size_t i = 0; i < zone->transitions_.size(); ++i) {
      zone->local_transitions_[i] = zone->transitions_[i] + zone->periods_[i].offset;
    }
    // A zone whose offset never changes (e.g. "UTC") is fixed.
    bool fixed = true;
    for (const auto& period : zone->periods_) {
      fixed = fixed && period.offset == zone->periods_[0].offset &&
              period.abbreviation == zone->periods_[0].abbreviation;
    }
    if (fixed) {
      zone->transitions_.clear();
      zone->local_transitions_.clear();
      zone->periods_.resize(1);
    }
  }
};

TimeZone::TimeZone(std::string id, int32_t fixed_offset) : id_(std::move(id)) {
  abbreviations_.push_back(id_);
  periods_.push_back({fixed_offset, 0});
}

size_t TimeZone::PeriodAt(int64_t utc_seconds) const {
  return static_cast<size_t>(
      std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds) -
      transitions_.begin());
}

int64_t TimeZone::PeriodBegin(size_t period) const {
  return period == 0 ? INT64_MIN : transitions_[period - 1];
}

int64_t TimeZone::PeriodEnd(size_t period) const {
  return period >= transitions_.size() ? INT64_MAX : transitions_[period];
}

int64_t TimeZone::LocalToUtc(int64_t local_seconds) const {
  if (transitions_.empty()) return local_seconds - periods_[0].offset;
  // The last transition whose local time (seen by the offset before it) is not after the time.
  const size_t count = static_cast<size_t>(
      std::upper_bound(local_transitions_.begin(), local_transitions_.end(), local_seconds) -
      local_transitions_.begin());
  if (count == 0) return local_seconds - periods_[0].offset;
  const int32_t before = periods_[count - 1].offset;
  const int32_t after = periods_[count].offset;
  if (after > before && local_seconds < transitions_[count - 1] + after) {
    // In the gap: shift forward by the gap's length.
    return local_seconds - before;
  }
  return local_seconds - after;
}

const std::string& TimeZone::AbbreviationAt(int64_t utc_seconds) const {
  return abbreviations_[periods_[PeriodAt(utc_seconds)].abbreviation];
}

bool ParseZoneOffset(std::string_view text, int32_t* seconds) {
  if (text == "Z") {
    *seconds = 0;
    return true;
  }
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return false;
  const int sign = text[0] == '-' ? -1 : 1;
  std::string_view body = text.substr(1);
  int hours = 0, minutes = 0, secs = 0;
  if (body.size() == 1 || body.size() == 2) {
    if (!AllDigits(body)) return false;
    hours = Number(body);
  } else if (body.size() == 4 && AllDigits(body)) {
    hours = Number(body.substr(0, 2));
    minutes = Number(body.substr(2, 2));
  } else if (body.size() == 5 && body[2] == ':' && AllDigits(body.substr(0, 2)) &&
             AllDigits(body.substr(3))) {
    hours = Number(body.substr(0, 2));
    minutes = Number(body.substr(3, 2));
  } else if (body.size() == 6 && AllDigits(body)) {
    hours = Number(body.substr(0, 2));
    minutes = Number(body.substr(2, 2));
    secs = Number(body.substr(4, 2));
  } else if (body.size() == 8 && body[2] == ':' && body[5] == ':' &&
             AllDigits(body.substr(0, 2)) && AllDigits(body.substr(3, 2)) &&
             AllDigits(body.substr(6))) {
    hours = Number(body.substr(0, 2));
    minutes = Number(body.substr(3, 2));
    secs = Number(body.substr(6, 2));
  } else {
    return false;
  }
  if (hours > 18 || minutes > 59 || secs > 59) return false;
  const int total = hours * 3600 + minutes * 60 + secs;
  if (total > 18 * 3600) return false;
  *seconds = sign * total;
  return true;
}

std::string ZoneOffsetId(int32_t seconds) {
  if (seconds == 0) return "Z";
  const int32_t total = seconds < 0 ? -seconds : seconds;
  std::string id = seconds < 0 ? "-" : "+";
  id += TwoDigits(total / 3600) + ":" + TwoDigits(total / 60 % 60);
  if (total % 60 != 0) id += ":" + TwoDigits(total % 60);
  return id;
}

arrow::Result<std::shared_ptr<const TimeZone>> TimeZone::Find(std::string_view raw_id) {
  // Zones are immutable: one process-wide cache, like the zone database it mirrors.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const TimeZone>, std::less<>> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(raw_id);
    if (it != cache.end()) return it->second;
  }
  std::string_view id = raw_id;
  auto short_id = ShortIds().find(id);
  if (short_id != ShortIds().end()) id = short_id->second;
  std::shared_ptr<const TimeZone> zone;
  int32_t offset = 0;
  if (ParseZoneOffset(id, &offset)) {
    zone = std::make_shared<TimeZone>(ZoneOffsetId(offset), offset);
  } else {
    std::string_view prefix;
    for (std::string_view candidate : {"UTC", "GMT", "UT"}) {
      if (id.substr(0, candidate.size()) == candidate &&
          (id.size() == candidate.size() || id[candidate.size()] == '+' ||
           id[candidate.size()] == '-')) {
        prefix = candidate;
        break;
      }
    }
    if (!prefix.empty() && id.size() > prefix.size()) {
      if (!ParseZoneOffset(id.substr(prefix.size()), &offset)) {
        return arrow::Status::Invalid("Invalid ID for offset-based ZoneId: ", raw_id);
      }
      zone = std::make_shared<TimeZone>(
          std::string(prefix) + (offset == 0 ? "" : ZoneOffsetId(offset)), offset);
    } else if (!prefix.empty()) {
      zone = std::make_shared<TimeZone>(std::string(prefix), 0);
    } else {
      if (!ValidRegionId(id)) return arrow::Status::Invalid("Unknown time zone id: ", raw_id);
      ARROW_ASSIGN_OR_RAISE(zone, TimeZoneLoader::Load(std::string(id)));
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  cache.emplace(std::string(raw_id), zone);
  return zone;
}

void ZoneOffsetCursor::Refill(int64_t utc_seconds) {
  const size_t period = zone_.PeriodAt(utc_seconds);
  begin_ = zone_.PeriodBegin(period);
  end_ = zone_.PeriodEnd(period);
  offset_ = zone_.PeriodOffset(period);
  begin_micros_ = begin_ == INT64_MIN ? INT64_MIN : begin_ * kMicrosPerSecond;
  end_micros_ = end_ == INT64_MAX ? INT64_MAX : end_ * kMicrosPerSecond;
}

void ZoneOffsetCursor::RefillMicros(int64_t utc_micros) {
  Refill(FloorDiv(utc_micros, kMicrosPerSecond));
}

}  // namespace sluice::datetime
