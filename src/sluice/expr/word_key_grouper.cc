// Keys of integral and boolean columns, and of structs of them (a time window and an id, say),
// that fit in a few words: each row's key becomes a word per value plus a word of null flags,
// read straight from the columns, where other keys are first encoded into rows of bytes
// (key_grouper.cc); and keys are compared and hashed a word at a time.
#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include <arrow/type.h>
#include <arrow/util/bit_util.h>

#include "sluice/common/huge_pages.h"
#include "sluice/common/mix_integer.h"
#include "sluice/expr/key_grouper_internal.h"

namespace sluice::expr::key_grouper_internal {

namespace {

// Values a key may have: a key (the values and the null flags) is then at most 56 bytes, about
// what an encoded key of that many values takes.
constexpr int kMaxValues = 6;

/// A key column, or a field of one, in pre-order; its null flag is the flags word's bit of its
/// place in that order.
struct KeyNode {
  int parent = -1;
  int value_word = -1;  // a leaf's word; -1 for a struct
  /// The flags of the nodes under this one, and the words of the leaves under it (its own
  /// for a leaf): what a null here makes meaningless, so cleared for one key to have one form.
  uint64_t flags_below = 0;
  std::vector<int> words_below;
};

struct KeyLayout {
  std::vector<KeyNode> nodes;
  int values = 0;
  uint64_t column_flags = 0;  // the flags of the key columns themselves
};

bool AddNodes(const arrow::DataType& type, int parent, KeyLayout* layout) {
  const int index = static_cast<int>(layout->nodes.size());
  if (index == 64) return false;
  KeyNode node;
  node.parent = parent;
  layout->nodes.push_back(std::move(node));
  if (type.id() == arrow::Type::STRUCT) {
    for (const auto& field : type.fields()) {
      if (!AddNodes(*field->type(), index, layout)) return false;
    }
    return true;
  }
  if (!IsIntegralKey(type) && type.id() != arrow::Type::BOOL) return false;
  if (layout->values == kMaxValues) return false;
  layout->nodes[index].value_word = layout->values++;
  return true;
}

std::optional<KeyLayout> LayoutOf(const std::vector<std::shared_ptr<arrow::DataType>>& types) {
  KeyLayout layout;
  for (const auto& type : types) {
    if (!AddNodes(*type, -1, &layout)) return std::nullopt;
  }
  if (layout.values == 0) return std::nullopt;
  for (size_t n = 0; n < layout.nodes.size(); ++n) {
    KeyNode& node = layout.nodes[n];
    if (node.parent < 0) layout.column_flags |= uint64_t{1} << n;
    if (node.value_word >= 0) node.words_below.push_back(node.value_word);
    for (int up = node.parent; up >= 0; up = layout.nodes[up].parent) {
      layout.nodes[up].flags_below |= uint64_t{1} << n;
      if (node.value_word >= 0) layout.nodes[up].words_below.push_back(node.value_word);
    }
  }
  return layout;
}

/// Open addressing over (hash tag, id) slots with linear probing; each group's key, W words
/// (its values, then its null flags), is kept once, in group order, to compare with. Keeping
/// the words in the slots instead made the table two and a half times larger, and slower.
template <int W>
class WordKeyGrouper final : public KeyGrouper {
 public:
  WordKeyGrouper(std::vector<std::shared_ptr<arrow::DataType>> types, KeyLayout layout,
                 arrow::MemoryPool* pool)
      : layout_(std::move(layout)),
        slots_(HugePageAllocator<Slot>(pool)),
        group_keys_(HugePageAllocator<uint64_t>(pool)),
        node_data_(layout_.nodes.size()),
        node_shift_(layout_.nodes.size()),
        types_(std::move(types)),
        pool_(pool) {
    Rehash(1 << 10);
  }

  void Reserve(int64_t groups) override {
    EnsureCapacity(groups);
    group_keys_.reserve(static_cast<size_t>(groups) * W);
  }

  arrow::Status Consume(const arrow::ArrayVector& keys, int64_t num_rows,
                        std::vector<uint32_t>* group_ids) override {
    group_ids->resize(num_rows);
    for (int64_t begin = 0; begin < num_rows; begin += kSliceRows) {
      const int64_t n = std::min(kSliceRows, num_rows - begin);
      EnsureCapacity(num_groups_ + n);
      Load(keys, begin, n);
      uint32_t* out = group_ids->data() + begin;
      for (int64_t i = 0; i < n; ++i) {
        PrefetchAhead(i, n);
        Slot& s = slots_[SlotOf(i)];
        if (s.id == kEmpty) {
          s.tag = TagOf(hashes_[i]);
          s.id = static_cast<uint32_t>(num_groups_++);
          group_keys_.insert(group_keys_.end(), KeyOf(i), KeyOf(i) + W);
        }
        out[i] = s.id;
      }
    }
    return arrow::Status::OK();
  }

  arrow::Status Lookup(const arrow::ArrayVector& keys, int64_t num_rows, bool null_matches,
                       std::vector<int32_t>* group_ids) const override {
    group_ids->resize(num_rows);
    for (int64_t begin = 0; begin < num_rows; begin += kSliceRows) {
      const int64_t n = std::min(kSliceRows, num_rows - begin);
      Load(keys, begin, n);
      int32_t* out = group_ids->data() + begin;
      for (int64_t i = 0; i < n; ++i) {
        PrefetchAhead(i, n);
        out[i] = -1;
        if (!null_matches && (KeyOf(i)[W - 1] & layout_.column_flags) != 0) continue;
        const Slot& s = slots_[SlotOf(i)];
        if (s.id != kEmpty) out[i] = static_cast<int32_t>(s.id);
      }
    }
    return arrow::Status::OK();
  }

  int64_t num_groups() const override { return num_groups_; }
  // Made from the groups' words rather than gathered from the rows that brought them: the
  // words hold every value and null of a key, and are in group order already.
  arrow::Result<arrow::ArrayVector> GetUniques() const override {
    uint64_t null_somewhere = 0;  // the flags of nodes null in some group
    for (uint32_t g = 0; g < num_groups_; ++g) null_somewhere |= GroupKey(g)[W - 1];
    arrow::ArrayVector columns;
    int node = 0;
    for (const auto& type : types_) {
      ARROW_ASSIGN_OR_RAISE(auto column, Column(type, null_somewhere, &node));
      columns.push_back(arrow::MakeArray(std::move(column)));
    }
    return columns;
  }

 private:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  struct Slot {
    uint32_t tag;  // the hash's high half: the home slot, and bits most other keys differ in
    uint32_t id;
  };

  static uint32_t TagOf(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }
  // A key's home slot: the hash's top bits, which its tag keeps (a table has at most 2^32
  // slots), so that growing the table moves slots without reading the keys of their groups,
  // each a cache miss once the groups outgrow the caches.
  uint64_t HomeOf(uint64_t hash) const { return hash >> shift_; }
  const uint64_t* KeyOf(int64_t i) const { return words_.data() + i * W; }
  const uint64_t* GroupKey(uint32_t id) const { return group_keys_.data() + uint64_t{id} * W; }

  // Prefetches the home slot of the row kPrefetchDistance ahead of row i of the slice's n.
  void PrefetchAhead(int64_t i, int64_t n) const {
    if (i + kPrefetchDistance < n) {
      __builtin_prefetch(&slots_[HomeOf(hashes_[i + kPrefetchDistance])]);
    }
  }

  // The slot of row i's key: its group's, or the empty slot where the group would go.
  uint64_t SlotOf(int64_t i) const {
    const uint64_t* key = KeyOf(i);
    const uint32_t tag = TagOf(hashes_[i]);
    uint64_t slot = HomeOf(hashes_[i]);
    while (slots_[slot].id != kEmpty &&
           !(slots_[slot].tag == tag && Same(GroupKey(slots_[slot].id), key))) {
      slot = (slot + 1) & mask_;
    }
    return slot;
  }

  static bool Same(const uint64_t* a, const uint64_t* b) {
    bool same = true;
    for (int w = 0; w < W; ++w) same &= a[w] == b[w];
    return same;
  }

  static uint64_t HashWords(const uint64_t* key) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int w = 0; w < W; ++w) {
      h = (h ^ key[w]) * 0xff51afd7ed558ccdULL;
      h ^= h >> 32;
    }
    return MixInteger(h);
  }

  // Binds each node of the layout to its array (the column, or a field's child array) and the
  // index in that array's buffers of the column's row 0.
  void Bind(const arrow::ArrayData& data, int64_t shift, int* node) const {
    const int index = (*node)++;
    node_data_[index] = &data;
    node_shift_[index] = shift;
    if (layout_.nodes[index].value_word >= 0) return;
    for (const auto& child : data.child_data) Bind(*child, shift + child->offset, node);
  }

  // The keys of rows [begin, begin + n) into words_, and their hashes into hashes_.
  void Load(const arrow::ArrayVector& keys, int64_t begin, int64_t n) const {
    int node = 0;
    for (const auto& key : keys) Bind(*key->data(), key->data()->offset, &node);
    words_.assign(static_cast<size_t>(n * W), 0);
    values_.resize(static_cast<size_t>(n));
    bool any_null = false;
    for (size_t index = 0; index < layout_.nodes.size(); ++index) {
      const arrow::ArrayData& data = *node_data_[index];
      const int64_t at = node_shift_[index] + begin;  // the buffers' index of row `begin`
      const int word = layout_.nodes[index].value_word;
      if (word >= 0 && data.type->id() == arrow::Type::BOOL) {
        const uint8_t* bits = data.buffers[1]->data();
        for (int64_t i = 0; i < n; ++i) words_[i * W + word] = arrow::bit_util::GetBit(bits, at + i);
      } else if (word >= 0) {
        ReadIntegral(data, at - data.offset, n, values_.data());
        for (int64_t i = 0; i < n; ++i) words_[i * W + word] = static_cast<uint64_t>(values_[i]);
      }
      if (data.buffers.empty() || data.buffers[0] == nullptr || data.null_count == 0) continue;
      const uint8_t* validity = data.buffers[0]->data();
      const uint64_t flag = uint64_t{1} << index;
      for (int64_t i = 0; i < n; ++i) {
        if (!arrow::bit_util::GetBit(validity, at + i)) {
          words_[i * W + W - 1] |= flag;
          any_null = true;
        }
      }
    }
    if (any_null) {
      for (int64_t i = 0; i < n; ++i) Canonicalize(words_.data() + i * W);
    }
    hashes_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) hashes_[i] = HashWords(KeyOf(i));
  }

  // Gives a key with nulls its one form: under a null, no flags and no values (the bytes of a
  // null's slots are whatever they happen to be).
  void Canonicalize(uint64_t* key) const {
    uint64_t flags = key[W - 1];
    for (uint64_t rest = flags; rest != 0;) {
      const int index = std::countr_zero(rest);
      rest &= rest - 1;
      if ((flags >> index & 1) == 0) continue;  // under a null met before
      const KeyNode& node = layout_.nodes[static_cast<size_t>(index)];
      flags &= ~node.flags_below;
      rest &= ~node.flags_below;
      for (int word : node.words_below) key[word] = 0;
    }
    key[W - 1] = flags;
  }

  void EnsureCapacity(int64_t groups) {
    uint64_t capacity = slots_.size();
    while (static_cast<uint64_t>(groups) * 4 > capacity * 3) capacity *= 2;
    if (capacity != slots_.size()) Rehash(capacity);
  }

  void Rehash(uint64_t capacity) {
    HugePageVector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{0, kEmpty});
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    for (const Slot& s : old) {
      if (s.id == kEmpty) continue;
      // The home slot is in the tag: the group's key need not be read and hashed again.
      uint64_t slot = HomeOf(uint64_t{s.tag} << 32);
      while (slots_[slot].id != kEmpty) slot = (slot + 1) & mask_;
      slots_[slot] = s;
    }
  }

  // The column of every group's value of the node `*node` (of type `type`), and of the nodes
  // under it; *node moves past them.
  arrow::Result<std::shared_ptr<arrow::ArrayData>> Column(
      const std::shared_ptr<arrow::DataType>& type, uint64_t null_somewhere, int* node) const {
    const int index = (*node)++;
    const uint32_t groups = static_cast<uint32_t>(num_groups_);
    std::shared_ptr<arrow::Buffer> validity;
    int64_t nulls = 0;
    if (null_somewhere >> index & 1) {
      ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(groups, pool_));
      uint8_t* bits = validity->mutable_data();
      for (uint32_t g = 0; g < groups; ++g) {
        const bool null = GroupKey(g)[W - 1] >> index & 1;
        arrow::bit_util::SetBitTo(bits, g, !null);
        nulls += null;
      }
    }
    if (type->id() == arrow::Type::STRUCT) {
      std::vector<std::shared_ptr<arrow::ArrayData>> children;
      for (const auto& field : type->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto child, Column(field->type(), null_somewhere, node));
        children.push_back(std::move(child));
      }
      return arrow::ArrayData::Make(type, groups, {std::move(validity)}, std::move(children),
                                    nulls);
    }
    const int word = layout_.nodes[static_cast<size_t>(index)].value_word;
    std::shared_ptr<arrow::Buffer> values;
    if (type->id() == arrow::Type::BOOL) {
      ARROW_ASSIGN_OR_RAISE(values, arrow::AllocateBitmap(groups, pool_));
      uint8_t* bits = values->mutable_data();
      for (uint32_t g = 0; g < groups; ++g) arrow::bit_util::SetBitTo(bits, g, GroupKey(g)[word]);
    } else {
      ARROW_ASSIGN_OR_RAISE(values, NarrowedWords(word, type->byte_width()));
    }
    return arrow::ArrayData::Make(type, groups, {std::move(validity), std::move(values)}, nulls);
  }

  // Every group's word `word` as a value of `width` bytes (the words hold a value's integer,
  // of which the low bytes are the value).
  arrow::Result<std::shared_ptr<arrow::Buffer>> NarrowedWords(int word, int width) const {
    const uint32_t groups = static_cast<uint32_t>(num_groups_);
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> values,
                          arrow::AllocateBuffer(int64_t{groups} * width, pool_));
    uint8_t* out = values->mutable_data();
    auto narrow = [&]<typename T>(T*) {
      for (uint32_t g = 0; g < groups; ++g) {
        reinterpret_cast<T*>(out)[g] = static_cast<T>(GroupKey(g)[word]);
      }
    };
    switch (width) {
      case 1: narrow(static_cast<uint8_t*>(nullptr)); break;
      case 2: narrow(static_cast<uint16_t*>(nullptr)); break;
      case 4: narrow(static_cast<uint32_t*>(nullptr)); break;
      default: narrow(static_cast<uint64_t*>(nullptr)); break;
    }
    return values;
  }

  const KeyLayout layout_;
  // In huge pages: a probe of a table larger than the caches would otherwise miss the TLB
  // too, and a prefetch that misses it may not be served before the probe.
  HugePageVector<Slot> slots_;
  uint64_t mask_ = 0;
  int shift_ = 64;
  int64_t num_groups_ = 0;
  // The W words of each group's key, in group order; read at random places, as slots are.
  HugePageVector<uint64_t> group_keys_;
  // Scratch space of the slice being processed (Lookup is logically const).
  mutable std::vector<const arrow::ArrayData*> node_data_;
  mutable std::vector<int64_t> node_shift_;
  mutable std::vector<uint64_t> words_;
  mutable std::vector<int64_t> values_;
  mutable std::vector<uint64_t> hashes_;
  const std::vector<std::shared_ptr<arrow::DataType>> types_;
  arrow::MemoryPool* const pool_;
};

template <int W>
std::unique_ptr<KeyGrouper> Make(const std::vector<std::shared_ptr<arrow::DataType>>& types,
                                 KeyLayout layout, arrow::MemoryPool* pool) {
  return std::make_unique<WordKeyGrouper<W>>(types, std::move(layout), pool);
}

}  // namespace

std::unique_ptr<KeyGrouper> MakeWordKeyGrouper(
    const std::vector<std::shared_ptr<arrow::DataType>>& types, arrow::MemoryPool* pool) {
  auto layout = LayoutOf(types);
  if (!layout) return nullptr;
  static_assert(kMaxValues == 6);
  switch (layout->values + 1) {  // the values, and the null flags
    case 2:
      return Make<2>(types, std::move(*layout), pool);
    case 3:
      return Make<3>(types, std::move(*layout), pool);
    case 4:
      return Make<4>(types, std::move(*layout), pool);
    case 5:
      return Make<5>(types, std::move(*layout), pool);
    case 6:
      return Make<6>(types, std::move(*layout), pool);
    default:
      return Make<7>(types, std::move(*layout), pool);
  }
}

}  // namespace sluice::expr::key_grouper_internal
