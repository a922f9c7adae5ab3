#include "usercode/run/checked_outcome.hpp"

#include <cstring>

#include "usercode/check/check_record.hpp"

namespace ks::usercode {

std::optional<std::string> checked_violation(const WorkerReply& reply, const std::vector<std::string>& buffer_names) {
  if (!reply.check_record) return std::nullopt;
  const auto words = reply.check_record->at("words").get<std::vector<std::uint32_t>>();
  CheckRecord record;
  if (words.size() * 4 < sizeof record) return std::nullopt;
  std::memcpy(static_cast<void*>(&record), words.data(), sizeof record);
  if (!has_violation(record)) return std::nullopt;
  std::vector<NamedBuffer> named;
  for (std::size_t i = 0; i < reply.buffer_addresses.size() && i < buffer_names.size(); ++i)
    named.push_back({reply.buffer_addresses[i], buffer_names[i]});
  return describe_violation(record, named);
}

}  // namespace ks::usercode
