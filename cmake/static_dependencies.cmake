# DDBD_STATIC: points the imported targets Debian's CMake files define at static archives.

# abseil: Debian's abslTargets name the shared libraries, and its -dev package ships the static
# archive of each beside it (libabsl_hash.so.20220623.0.0 -> libabsl_hash.a).
get_directory_property(ddbd_imported IMPORTED_TARGETS)
foreach(target IN LISTS ddbd_imported)
  if(NOT target MATCHES "^absl::")
    continue()
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "SHARED_LIBRARY")
    continue()
  endif()
  get_target_property(configurations ${target} IMPORTED_CONFIGURATIONS)
  foreach(configuration IN LISTS configurations)
    get_target_property(shared ${target} IMPORTED_LOCATION_${configuration})
    string(REGEX REPLACE "\\.so(\\.[0-9.]+)?$" ".a" archive "${shared}")
    if(NOT EXISTS "${archive}")
      message(FATAL_ERROR "DDBD_STATIC: no static archive for ${target} (${archive})")
    endif()
    set_target_properties(${target} PROPERTIES IMPORTED_LOCATION_${configuration} "${archive}"
                                                IMPORTED_SONAME_${configuration} "")
  endforeach()
  # A static archive is linked as a static library (no -rpath, no NEEDED entry).
  set_property(TARGET ${target} PROPERTY IMPORTED_NO_SONAME TRUE)
endforeach()

# spdlog and fmt header-only: Debian ships neither as a static archive.
find_package(fmt REQUIRED)
set_target_properties(spdlog::spdlog_header_only PROPERTIES
                      INTERFACE_LINK_LIBRARIES "Threads::Threads;fmt::fmt-header-only")

# ISA-L and mimalloc from DDBD_DEPS_PREFIX (scripts/release).
if(NOT EXISTS "${DDBD_DEPS_PREFIX}/lib/libisal.a" OR
   NOT EXISTS "${DDBD_DEPS_PREFIX}/lib/mimalloc.o")
  message(FATAL_ERROR "DDBD_STATIC needs DDBD_DEPS_PREFIX with lib/libisal.a and lib/mimalloc.o "
                      "(scripts/release builds them)")
endif()
set(DDBD_MIMALLOC_DIR "${DDBD_DEPS_PREFIX}/lib")
set(DDBD_MIMALLOC_INCLUDE_DIR "${DDBD_DEPS_PREFIX}/include")
