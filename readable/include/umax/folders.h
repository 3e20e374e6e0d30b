/// \file folders.h
/// \brief Reading a folder a user names: its files found without harm (the kernel's pseudo
/// filesystems not entered, links not followed, FIFOs and devices refused), and file names in
/// the order a person counts them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace umax {

/// The kernel's pseudo filesystem `folder` lies on ("proc", "sysfs", ...), or "" for any other:
/// such a folder holds no user's files, and walking /proc or /sys reads the whole system's state.
std::string pseudoFilesystem(const std::filesystem::path& folder);

/// File names in "natural" order, digit runs compared as numbers, so that
/// "move-9" comes before "move-10" whatever the zero padding.
bool naturalLess(const std::string& a, const std::string& b);

/// Collects into `files` the regular files whose path `wanted` accepts in `folder` and in its
/// sub-folders down to `depth` levels (0: the folder alone), in directory order: folders on the
/// kernel's pseudo filesystems are not entered, links are not followed into folders, and after
/// `most` files the rest are left ("... and the rest: more than N `noun`, not read"). What cannot
/// be read (a folder, a link in a loop or to nowhere, a wanted FIFO or device) goes to
/// `refusals`, "path: why".
void collectFiles(const std::filesystem::path& folder, int depth,
                  const std::function<bool(const std::filesystem::path&)>& wanted, std::size_t most,
                  const std::string& noun, std::vector<std::filesystem::path>& files,
                  std::vector<std::string>& refusals);

}  // namespace umax
