# perfplan_add_test(NAME <name> [RUNS_PERFPLAN] SOURCES <files...> LIBS <targets...>)
#
# Builds one doctest executable and registers it with CTest; RUNS_PERFPLAN: the test runs the
# perfplan binary, so building the test builds the binary first. A test file that reads
# ../shared/data declares PERFPLAN_REQUIRE_SHARED_DATA(); when that folder is
# absent the executable prints the reason and exits with 77, which CTest reports as "Skipped".
set(PERFPLAN_SHARED_DATA_DIR "${PROJECT_SOURCE_DIR}/../shared/data" CACHE PATH
    "Folder with the real public test data (../shared/data next to the source tree)")

function(perfplan_add_test)
  cmake_parse_arguments(ARG "RUNS_PERFPLAN" "NAME" "SOURCES;LIBS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE perfplan_test_main ${ARG_LIBS} perfplan_options)
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME})
  set_tests_properties(${ARG_NAME} PROPERTIES SKIP_RETURN_CODE 77)
  if(ARG_RUNS_PERFPLAN)
    add_dependencies(${ARG_NAME} perfplan)
  endif()
endfunction()
