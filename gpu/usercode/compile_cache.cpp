#include "usercode/compile_cache.hpp"

#include "usercode/nvrtc_compile.hpp"

namespace ks::usercode {

CompileCache::CompileCache(std::size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

std::string CompileCache::key(std::string_view source, const std::string& file_name, const CompileOptions& options) {
  std::string k = nvrtc_version() + '\0' + file_name + '\0' + options.arch + '\0' + (options.use_pch ? "pch" : "") +
                  '\0' + (options.line_info ? "lineinfo" : "") + '\0';
  for (const auto& o : options.extra) k += o + '\0';
  k += '\0';
  k.append(source);
  return k;
}

std::shared_ptr<const CompiledModule> CompileCache::find(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  order_.splice(order_.begin(), order_, it->second.position);
  return it->second.module;
}

void CompileCache::insert(const std::string& key, std::shared_ptr<const CompiledModule> module) {
  std::lock_guard lock(mutex_);
  if (auto it = entries_.find(key); it != entries_.end()) {
    it->second.module = std::move(module);
    order_.splice(order_.begin(), order_, it->second.position);
    return;
  }
  order_.push_front(key);
  entries_.emplace(key, Entry{std::move(module), order_.begin()});
  while (entries_.size() > capacity_) {
    entries_.erase(order_.back());
    order_.pop_back();
  }
}

std::size_t CompileCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace ks::usercode
