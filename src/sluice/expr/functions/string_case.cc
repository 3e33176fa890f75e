#include "sluice/expr/functions/string_case.h"

#include <locale.h>
#include <wctype.h>

#include <cstring>
#include <string>

#include <arrow/array/data.h>
#include <arrow/buffer.h>

namespace sluice::expr {

namespace {

// The C.UTF-8 locale gives towupper_l/towlower_l Unicode's simple case mappings; it is created
// once and never changed, so reading it from several threads is safe.
locale_t UnicodeLocale() {
  static const locale_t locale = [] {
    locale_t made = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
    return made != static_cast<locale_t>(0) ? made : newlocale(LC_CTYPE_MASK, "C", 0);
  }();
  return locale;
}

struct SpecialCase {
  uint32_t code_point;
  const char* mapping;  // UTF-8
};

// SpecialCasing.txt's unconditional upper-case mappings that expand to several characters (Java
// applies them in String.toUpperCase).
constexpr SpecialCase kUpperSpecial[] = {
    {0x00DF, "SS"},
    {0x0149, "\u02BCN"},
    {0x01F0, "J\u030C"},
    {0x0390, "\u0399\u0308\u0301"},
    {0x03B0, "\u03A5\u0308\u0301"},
    {0x0587, "\u0535\u0552"},
    {0x1E96, "H\u0331"},
    {0x1E97, "T\u0308"},
    {0x1E98, "W\u030A"},
    {0x1E99, "Y\u030A"},
    {0x1E9A, "A\u02BE"},
    {0x1F50, "\u03A5\u0313"},
    {0x1F52, "\u03A5\u0313\u0300"},
    {0x1F54, "\u03A5\u0313\u0301"},
    {0x1F56, "\u03A5\u0313\u0342"},
    {0x1FB6, "\u0391\u0342"},
    {0x1FC6, "\u0397\u0342"},
    {0x1FD2, "\u0399\u0308\u0300"},
    {0x1FD3, "\u0399\u0308\u0301"},
    {0x1FD6, "\u0399\u0342"},
    {0x1FD7, "\u0399\u0308\u0342"},
    {0x1FE2, "\u03A5\u0308\u0300"},
    {0x1FE3, "\u03A5\u0308\u0301"},
    {0x1FE4, "\u03A1\u0313"},
    {0x1FE6, "\u03A5\u0342"},
    {0x1FE7, "\u03A5\u0308\u0342"},
    {0x1FF6, "\u03A9\u0342"},
    {0xFB00, "FF"},
    {0xFB01, "FI"},
    {0xFB02, "FL"},
    {0xFB03, "FFI"},
    {0xFB04, "FFL"},
    {0xFB05, "ST"},
    {0xFB06, "ST"},
    {0xFB13, "\u0544\u0546"},
    {0xFB14, "\u0544\u0535"},
    {0xFB15, "\u0544\u053B"},
    {0xFB16, "\u054E\u0546"},
    {0xFB17, "\u0544\u053D"},
};

// Greek letters with ypogegrammeni/prosgegrammeni upper-case to the capital and an iota
// (SpecialCasing.txt): the base capital of `cp`, or 0 when `cp` is not one of them.
uint32_t IotaBase(uint32_t cp) {
  if (cp >= 0x1F80 && cp <= 0x1FAF) {
    static constexpr uint32_t kBlocks[] = {0x1F08, 0x1F28, 0x1F68};
    return kBlocks[(cp - 0x1F80) / 16] + (cp & 7);
  }
  switch (cp) {
    case 0x1FB3: case 0x1FBC: return 0x0391;
    case 0x1FC3: case 0x1FCC: return 0x0397;
    case 0x1FF3: case 0x1FFC: return 0x03A9;
    case 0x1FB2: return 0x1FBA;
    case 0x1FB4: return 0x0386;
    case 0x1FC2: return 0x1FCA;
    case 0x1FC4: return 0x0389;
    case 0x1FF2: return 0x1FFA;
    case 0x1FF4: return 0x038F;
    default: return 0;
  }
}

const char* UpperSpecial(uint32_t cp) {
  if (cp != 0xDF && cp != 0x149 && cp != 0x1F0 && cp < 0x390) return nullptr;
  for (const auto& special : kUpperSpecial) {
    if (special.code_point == cp) return special.mapping;
  }
  return nullptr;
}

bool IsAsciiOnly(std::string_view text) {
  for (unsigned char c : text) {
    if (c >= 0x80) return false;
  }
  return true;
}

void AppendCodePoint(uint32_t cp, StringOutput& out) {
  char buffer[4];
  int n;
  if (cp < 0x80) {
    out.AppendChar(static_cast<char>(cp));
    return;
  } else if (cp < 0x800) {
    buffer[0] = static_cast<char>(0xC0 | (cp >> 6));
    buffer[1] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    buffer[0] = static_cast<char>(0xE0 | (cp >> 12));
    buffer[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buffer[2] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    buffer[0] = static_cast<char>(0xF0 | (cp >> 18));
    buffer[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buffer[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buffer[3] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 4;
  }
  out.Append(std::string_view(buffer, n));
}

uint32_t SimpleUpper(uint32_t cp) {
  return static_cast<uint32_t>(towupper_l(static_cast<wint_t>(cp), UnicodeLocale()));
}
uint32_t SimpleLower(uint32_t cp) {
  return static_cast<uint32_t>(towlower_l(static_cast<wint_t>(cp), UnicodeLocale()));
}
bool IsLetter(uint32_t cp) { return iswalpha_l(static_cast<wint_t>(cp), UnicodeLocale()) != 0; }

// Java's Character.toTitleCase: the upper case, except for the digraphs that have a title-case
// form of their own and Georgian letters, whose title case is themselves.
uint32_t SimpleTitle(uint32_t cp) {
  if (cp >= 0x01C4 && cp <= 0x01CC) return cp - (cp - 0x01C4) % 3 + 1;
  if (cp >= 0x01F1 && cp <= 0x01F3) return 0x01F2;
  if ((cp >= 0x10D0 && cp <= 0x10FA) || (cp >= 0x10FD && cp <= 0x10FF)) return cp;
  return SimpleUpper(cp);
}

void AppendUpperSlow(std::string_view text, StringOutput& out) {
  size_t pos = 0;
  while (pos < text.size()) {
    const uint32_t cp = Utf8Decode(text, pos);
    if (cp < 0x80) {
      out.AppendChar(static_cast<char>(cp >= 'a' && cp <= 'z' ? cp - 32 : cp));
    } else if (const char* special = UpperSpecial(cp)) {
      out.Append(special);
    } else if (const uint32_t base = IotaBase(cp)) {
      AppendCodePoint(base, out);
      AppendCodePoint(0x0399, out);
    } else if (cp == 0x1FB7 || cp == 0x1FC7 || cp == 0x1FF7) {
      AppendCodePoint(cp == 0x1FB7 ? 0x0391 : cp == 0x1FC7 ? 0x0397 : 0x03A9, out);
      AppendCodePoint(0x0342, out);
      AppendCodePoint(0x0399, out);
    } else {
      AppendCodePoint(SimpleUpper(cp), out);
    }
  }
}

void AppendLowerSlow(std::string_view text, StringOutput& out) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = pos;
    const uint32_t cp = Utf8Decode(text, pos);
    if (cp < 0x80) {
      out.AppendChar(static_cast<char>(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp));
    } else if (cp == 0x0130) {
      out.Append("i\u0307");
    } else if (cp == 0x03A3) {
      // Final sigma: a letter before it and none right after it.
      bool letter_before = false;
      if (start > 0) {
        size_t back = start - 1;
        while (back > 0 && (static_cast<unsigned char>(text[back]) & 0xC0) == 0x80) --back;
        size_t probe = back;
        letter_before = IsLetter(Utf8Decode(text, probe));
      }
      bool letter_after = false;
      if (pos < text.size()) {
        size_t probe = pos;
        letter_after = IsLetter(Utf8Decode(text, probe));
      }
      AppendCodePoint(letter_before && !letter_after ? 0x03C2 : 0x03C3, out);
    } else {
      AppendCodePoint(SimpleLower(cp), out);
    }
  }
}

}  // namespace

void AppendUpper(std::string_view text, StringOutput& out) {
  if (!IsAsciiOnly(text)) return AppendUpperSlow(text, out);
  char* dest = out.Extend(static_cast<int64_t>(text.size()));
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    dest[i] = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  }
  out.Advance(static_cast<int64_t>(text.size()));
}

void AppendLower(std::string_view text, StringOutput& out) {
  if (!IsAsciiOnly(text)) return AppendLowerSlow(text, out);
  char* dest = out.Extend(static_cast<int64_t>(text.size()));
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    dest[i] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
  out.Advance(static_cast<int64_t>(text.size()));
}

arrow::Result<std::optional<arrow::Datum>> MapAsciiCase(const arrow::Datum& input,
                                                        AsciiCase to, arrow::MemoryPool* pool) {
  if (!input.is_array() || input.type()->id() != arrow::Type::STRING) return std::nullopt;
  const auto& array = *input.array();
  const int32_t* offsets = array.GetValues<int32_t>(1);
  if (array.length == 0 || offsets[0] != 0 || array.buffers[2] == nullptr) return std::nullopt;
  const auto size = static_cast<size_t>(offsets[array.length]);
  const uint8_t* bytes = array.buffers[2]->data();
  // Word by word, then the bytes past the last whole word: a set high bit is a non-ASCII byte.
  uint64_t high = 0;
  size_t at = 0;
  for (; at + 8 <= size; at += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + at, 8);
    high |= word;
  }
  for (; at < size; ++at) high |= bytes[at];
  if ((high & 0x8080808080808080ULL) != 0) return std::nullopt;
  ARROW_ASSIGN_OR_RAISE(auto mapped, arrow::AllocateBuffer(static_cast<int64_t>(size), pool));
  uint8_t* out = mapped->mutable_data();
  // The letters of the case mapped from are 26 consecutive bytes from `first`; a byte in that
  // range moves by 32 (compiled to vector compares and adds).
  const uint8_t first = to == AsciiCase::kLower ? 'A' : 'a';
  const uint8_t shift = to == AsciiCase::kLower ? 32 : static_cast<uint8_t>(-32);
  for (size_t i = 0; i < size; ++i) {
    const uint8_t c = bytes[i];
    out[i] = static_cast<uint8_t>(c + (static_cast<uint8_t>(c - first) < 26 ? shift : 0));
  }
  auto result = array.Copy();
  result->type = arrow::utf8();
  result->buffers[2] = std::move(mapped);
  return arrow::Datum(std::move(result));
}

void AppendInitcap(std::string_view text, StringOutput& out) {
  // Lower-case first (into a scratch output row), then title-case each word's first letter.
  StringOutput lowered(1, static_cast<int64_t>(text.size()) + 8, arrow::default_memory_pool());
  AppendLower(text, lowered);
  lowered.EndRow();
  auto finished = lowered.Finish();
  if (!finished.ok()) return;
  const auto& data = **finished;
  const int32_t* offsets = data.GetValues<int32_t>(1);
  std::string_view lower(reinterpret_cast<const char*>(data.buffers[2]->data()) + offsets[0],
                         static_cast<size_t>(offsets[1] - offsets[0]));
  size_t pos = 0;
  bool word_start = true;
  while (pos < lower.size()) {
    const uint32_t cp = Utf8Decode(lower, pos);
    if (word_start && cp != ' ') {
      AppendCodePoint(cp < 0x80 ? (cp >= 'a' && cp <= 'z' ? cp - 32 : cp) : SimpleTitle(cp), out);
    } else {
      AppendCodePoint(cp, out);
    }
    word_start = cp == ' ';
  }
}

}  // namespace sluice::expr
