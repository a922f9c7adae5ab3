#pragma once
// Compiled modules kept by what produced them (source, file name, options, NVRTC's version: the prelude is part of
// the binary, so its version is the build's), so that compiling an unchanged kernel again costs nothing. Failed
// compiles are kept too: their diagnostics come back at once. Least recently used modules go first. Thread-safe:
// the app compiles on a worker while the UI reads.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "usercode/compiled_module.hpp"

namespace ks::usercode {

class CompileCache {
 public:
  explicit CompileCache(std::size_t capacity = 32);

  // What identifies a compile: the full text of its inputs (hashed by the map).
  static std::string key(std::string_view source, const std::string& file_name, const CompileOptions& options);

  std::shared_ptr<const CompiledModule> find(const std::string& key);
  void insert(const std::string& key, std::shared_ptr<const CompiledModule> module);
  std::size_t size() const;

 private:
  using Order = std::list<std::string>;
  struct Entry {
    std::shared_ptr<const CompiledModule> module;
    Order::iterator position;
  };
  std::size_t capacity_;
  mutable std::mutex mutex_;
  Order order_;  // most recently used first
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace ks::usercode
