#include "topo/sweep/sweep_messages.hpp"

#include "core/error.hpp"

namespace ks::topo {

void ByteReader::fail() const {
  throw Error(ErrorKind::Io, "a sweep message from another rank is cut short or malformed",
              "every rank must run the same build of kernelscope-cli");
}

namespace {

void put_report(ByteWriter& w, const ChunkReport& r) {
  w.put(r.version);
  w.put_vector(r.chunks);
  w.put_vector(r.result.stats);
  w.put_vector(r.result.counts);
  w.put_vector(r.result.top);
  w.put(std::uint8_t(r.result.counted_values));
  w.put(r.busy_ms);
  w.put(r.evaluations);
}

ChunkReport get_report(ByteReader& in) {
  ChunkReport r;
  r.version = in.get<std::uint64_t>();
  r.chunks = in.get_vector<std::uint64_t>();
  r.result.stats = in.get_vector<RawStats>();
  r.result.counts = in.get_vector<std::array<std::uint64_t, kHistogramBins>>();
  r.result.top = in.get_vector<Candidate>();
  r.result.counted_values = in.get<std::uint8_t>() != 0;
  r.busy_ms = in.get<double>();
  r.evaluations = in.get<std::uint64_t>();
  return r;
}

}  // namespace

std::vector<std::uint8_t> encode(const Message& m) {
  ByteWriter w;
  w.put(m.type);
  switch (m.type) {
    case MessageType::Hello:
      w.put_string(m.hello.name);
      w.put(m.hello.fingerprint);
      w.put(m.hello.default_batch);
      break;
    case MessageType::Failed:
      w.put_string(m.failure);
      put_report(w, m.report);
      break;
    case MessageType::Report:
      put_report(w, m.report);
      break;
    case MessageType::Assign: {
      w.put(m.assignment.version);
      w.put_vector(m.assignment.chunks);
      w.put_vector(m.assignment.items);
      w.put(std::uint8_t(m.with_inputs));
      if (m.with_inputs) {
        const PassInputs& in = m.inputs;
        w.put(in.version);
        w.put(in.rep);
        w.put(in.pass);
        w.put(std::uint8_t(in.histogram_follows));
        w.put_vector(in.bins);
        w.put_vector(in.counts);
        w.put(in.top_k);
        w.put(in.top_slice);
      }
      break;
    }
    case MessageType::Stop:
      break;
  }
  return w.take();
}

Message decode(const std::vector<std::uint8_t>& bytes) {
  ByteReader in(bytes);
  Message m;
  m.type = in.get<MessageType>();
  switch (m.type) {
    case MessageType::Hello:
      m.hello.name = in.get_string();
      m.hello.fingerprint = in.get<std::uint64_t>();
      m.hello.default_batch = in.get<std::uint64_t>();
      break;
    case MessageType::Failed:
      m.failure = in.get_string();
      m.report = get_report(in);
      break;
    case MessageType::Report:
      m.report = get_report(in);
      break;
    case MessageType::Assign: {
      m.assignment.version = in.get<std::uint64_t>();
      m.assignment.chunks = in.get_vector<std::uint64_t>();
      m.assignment.items = in.get_vector<ItemRange>();
      m.with_inputs = in.get<std::uint8_t>() != 0;
      if (m.with_inputs) {
        PassInputs& p = m.inputs;
        p.version = in.get<std::uint64_t>();
        p.rep = in.get<int>();
        p.pass = in.get<Pass>();
        p.histogram_follows = in.get<std::uint8_t>() != 0;
        p.bins = in.get_vector<HistogramBins>();
        p.counts = in.get_vector<std::array<std::uint64_t, kHistogramBins>>();
        p.top_k = in.get<int>();
        p.top_slice = in.get<int>();
      }
      break;
    }
    case MessageType::Stop:
      break;
    default:
      throw Error(ErrorKind::Io, "a sweep message of an unknown type arrived from another rank",
                  "every rank must run the same build of kernelscope-cli");
  }
  if (!in.at_end())
    throw Error(ErrorKind::Io, "a sweep message from another rank is longer than its content",
                "every rank must run the same build of kernelscope-cli");
  return m;
}

}  // namespace ks::topo
