// The English names Spark's datetime patterns print and parse (MMMM, EEEE, QQQQ), shared by
// formatting (pattern.cc) and parsing (pattern_parse.cc).
#pragma once

namespace sluice::datetime {

inline constexpr const char* kMonthNames[] = {"January", "February", "March",     "April",
                                              "May",     "June",     "July",      "August",
                                              "September", "October", "November", "December"};
inline constexpr const char* kDayNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                            "Friday", "Saturday", "Sunday"};
inline constexpr const char* kQuarterNames[] = {"1st quarter", "2nd quarter", "3rd quarter",
                                                "4th quarter"};

}  // namespace sluice::datetime
