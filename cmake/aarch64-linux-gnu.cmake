# Cross-compiling for arm64 with Debian's toolchain (g++-aarch64-linux-gnu) against Debian's
# arm64 -dev packages installed beside the native ones (dpkg --add-architecture arm64):
# scripts/release installs both.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Headers and libraries from the target's multiarch directories (and DDBD_DEPS_PREFIX); programs
# (help2man, cmake's own) from the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# Run by qemu-user when a build step runs what it built (the man page is the x86-64 build's).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
# pkg-config (FindOpenSSL asks it) reads the target's .pc files, not the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
