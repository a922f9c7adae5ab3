// GifAnimation through giflib's encoder (EGif*), writing into an AtomicFile's stream.
#include "io/gif_writer.hpp"

#include <fmt/format.h>
#include <gif_lib.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace ks {

namespace {

// giflib's error text; its own codes say little to a user, so the caller adds what was being written.
std::string gif_error_text(int code) {
  const char* text = GifErrorString(code);
  return text ? text : fmt::format("giflib error {}", code);
}

int write_to_stdio(GifFileType* gif, const GifByteType* bytes, int count) {
  // A short write is reported by AtomicFile::commit() with the system's reason (disk full, ...).
  return int(std::fwrite(bytes, 1, std::size_t(count), static_cast<std::FILE*>(gif->UserData)));
}

}  // namespace

void require_gif_support() {}

// The open encoder over the temporary file. giflib frees the GifFileType in EGifCloseFile, whatever it returns.
struct GifAnimation::Writer {
  AtomicFile file;
  GifFileType* gif = nullptr;
  int delay_cs = 0;

  explicit Writer(const std::filesystem::path& target) : file(target) {}
  ~Writer() {
    if (gif) EGifCloseFile(gif, nullptr);  // an unfinished animation: the temporary goes with `file`
  }

  [[noreturn]] void fail(const std::string& doing, int code) const {
    throw_io(fmt::format("could not write '{}': {} failed ({})", file.target().string(), doing, gif_error_text(code)),
             "check the disk and the path");
  }
  void check(int status, const char* doing) const {
    if (status != GIF_OK) fail(doing, gif->Error);
  }
};

GifAnimation::GifAnimation(const std::filesystem::path& target, int width, int height,
                           std::span<const Rgb8, 256> palette, int delay_cs)
    : width_(width), height_(height) {
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
    throw_usage(fmt::format("a GIF of {}x{} cannot be written: each side must be 1..{}", width, height, kMaxSide),
                "write PNG frames instead (--frames)");
  if (delay_cs < 1 || delay_cs > 65535)
    throw_usage(fmt::format("a GIF frame delay of {} hundredths of a second is out of range (1..65535)", delay_cs));
  writer_ = std::make_unique<Writer>(target);
  writer_->delay_cs = delay_cs;
  int code = 0;
  writer_->gif = EGifOpen(writer_->file.file(), write_to_stdio, &code);
  if (!writer_->gif) writer_->fail("opening the encoder", code);
  GifFileType* gif = writer_->gif;
  EGifSetGifVersion(gif, true);  // GIF89a: the delay and the loop are extensions

  std::vector<GifColorType> colors(256);
  for (std::size_t i = 0; i < 256; ++i) colors[i] = {palette[i][0], palette[i][1], palette[i][2]};
  ColorMapObject* map = GifMakeMapObject(256, colors.data());
  if (!map) throw Error(ErrorKind::OutOfMemory, "out of memory for a GIF palette");
  const int status = EGifPutScreenDesc(gif, width, height, 8, 0, map);
  GifFreeMapObject(map);  // copied by EGifPutScreenDesc
  writer_->check(status, "writing the screen descriptor");

  // NETSCAPE2.0 application extension, loop count 0: browsers and viewers loop the animation forever.
  static const GifByteType kApplication[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType kLoopForever[] = {1, 0, 0};
  writer_->check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "writing the loop extension");
  writer_->check(EGifPutExtensionBlock(gif, sizeof kApplication, kApplication), "writing the loop extension");
  writer_->check(EGifPutExtensionBlock(gif, sizeof kLoopForever, kLoopForever), "writing the loop extension");
  writer_->check(EGifPutExtensionTrailer(gif), "writing the loop extension");
}

GifAnimation::~GifAnimation() = default;

void GifAnimation::add_frame(const Image& indices) {
  if (!writer_ || !writer_->gif) throw_usage("the GIF is finished; no more frames can be added");
  if (indices.channels() != 1 || indices.type() != ElemType::U8 || indices.width() != width_ ||
      indices.height() != height_)
    throw_usage(fmt::format("a GIF frame must be 1-channel u8 {}x{} (got {} channel(s), {}x{})", width_, height_,
                            indices.channels(), indices.width(), indices.height()));
  GifFileType* gif = writer_->gif;
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;
  control.UserInputFlag = false;
  control.DelayTime = writer_->delay_cs;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const std::size_t length = EGifGCBToExtension(&control, extension);
  writer_->check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(length), extension), "writing a frame's delay");
  writer_->check(EGifPutImageDesc(gif, 0, 0, width_, height_, false, nullptr), "writing a frame's descriptor");
  for (int y = 0; y < height_; ++y) {
    // giflib takes non-const rows but does not write them.
    auto* row = const_cast<GifPixelType*>(reinterpret_cast<const GifPixelType*>(indices.row<std::uint8_t>(y)));
    writer_->check(EGifPutLine(gif, row, width_), "compressing a frame");
  }
  ++frames_;
}

void GifAnimation::finish() {
  if (!writer_ || !writer_->gif) throw_usage("the GIF is finished already");
  if (frames_ == 0) throw_usage("a GIF needs at least one frame");
  int code = 0;
  const int status = EGifCloseFile(writer_->gif, &code);  // writes the trailer; frees the encoder either way
  writer_->gif = nullptr;
  if (status != GIF_OK) writer_->fail("writing the end of the file", code);
  writer_->file.commit();
}

}  // namespace ks
