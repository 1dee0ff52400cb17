# tests/fuzz/fuzz.cmake — the fuzz targets (fuzz_<name>.c), included by
# CMakeLists.txt. With TLV_FUZZ=ON (clang only) they are libFuzzer programs,
# and every object of that build gets coverage instrumentation and ASan+UBSan
# (a UBSan finding aborts, so libFuzzer keeps it as a crash); tests/fuzz/run.sh
# makes that build (build-fuzz/) and runs them. In every other build with
# tests, each target is linked with replay.c instead and ctest replays its
# seeds and the inputs that once crashed (tests/fuzz/regress/<name>/).
set(TLV_FUZZ_TARGETS json stdform cond geom convert rules calc session clock export requirements
  consistency cache shapecache)
set(TLV_FUZZ_DIR ${PROJECT_SOURCE_DIR}/tests/fuzz)

function(tlv_fuzz_target exe name)
  target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/libtlv/src)
  target_compile_definitions(${exe} PRIVATE TLV_FUZZ_RULES_DIR="${TLV_FUZZ_DIR}/rules")
  target_link_libraries(${exe} PRIVATE tlv_internal)
  if(name STREQUAL "export") # libtlv-export's SQLite writer
    target_link_libraries(${exe} PRIVATE tlv_export_internal PkgConfig::SQLITE3)
  elseif(name STREQUAL "session") # the viewer's session reader, which needs no SDL library
    target_sources(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/view/session_read.c
      ${PROJECT_SOURCE_DIR}/view/view_markers.c)
    target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}
      ${SDL2_INCLUDE_DIRS})
    target_link_libraries(${exe} PRIVATE PkgConfig::CJSON m)
  endif()
endfunction()

if(TLV_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TLV_FUZZ=ON needs clang: configure with CC=clang")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer -g)
  # -Werror gates the gcc build; clang's extra warnings must not stop fuzzing.
  add_compile_options(-Wno-error)
  add_link_options(-fsanitize=address,undefined)
  foreach(name ${TLV_FUZZ_TARGETS})
    add_executable(fuzz_${name} ${TLV_FUZZ_DIR}/fuzz_${name}.c)
    tlv_fuzz_target(fuzz_${name} ${name})
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    set_target_properties(fuzz_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
    list(APPEND TLV_FUZZ_EXECUTABLES fuzz_${name})
  endforeach()
  add_custom_target(fuzz_all DEPENDS ${TLV_FUZZ_EXECUTABLES})
elseif(BUILD_TESTING)
  foreach(name ${TLV_FUZZ_TARGETS})
    add_executable(fuzz_replay_${name} ${TLV_FUZZ_DIR}/fuzz_${name}.c ${TLV_FUZZ_DIR}/replay.c)
    tlv_fuzz_target(fuzz_replay_${name} ${name})
    set_target_properties(fuzz_replay_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
    add_test(NAME fuzz.${name} COMMAND fuzz_replay_${name}
      ${TLV_FUZZ_DIR}/seeds/${name} ${TLV_FUZZ_DIR}/regress/${name})
    set_tests_properties(fuzz.${name} PROPERTIES ENVIRONMENT
      "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
      LABELS "unit;fuzz")
  endforeach()
endif()
