# Layers the build enforces (docs/ARCHITECTURE.md). A static library alone does not: a program
# links every library, so a call from one library into another it does not declare would link
# there anyway. fa_link_check(L) adds an executable, built by default and never run, that links
# every object of L ($<LINK_LIBRARY:WHOLE_ARCHIVE,L>) with only what L declares it uses (its
# target_link_libraries, transitively) and an empty main: a call from L into any other library is
# then an undefined reference, and the build stops on it.
add_library(fa_link_check_main OBJECT ${CMAKE_CURRENT_LIST_DIR}/link_check_main.cpp)
set_target_properties(fa_link_check_main PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)

function(fa_link_check library)
  set(check ${library}_link_check)
  add_executable(${check} $<TARGET_OBJECTS:fa_link_check_main>)
  target_link_libraries(${check} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${library}>")
  set_target_properties(${check} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF
                        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/link-check)
endfunction()

# One library of the engine: its sources, the libraries it may use (PUBLIC, so its users may use
# them too) and its link check. No Qt here.
function(fa_core_library name)
  cmake_parse_arguments(L "" "" "SOURCES;USES" ${ARGN})
  add_library(${name} STATIC ${L_SOURCES})
  target_link_libraries(${name} PUBLIC ${L_USES})
  set_target_properties(${name} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
  if(FAEXPLORER_UNITY)
    # One translation unit per batch of sources: Eigen's templates are instantiated once a batch,
    # not once a file. A .cpp then reads as a header to GCC, which warns when one of its classes
    # holds a type from its own unnamed namespace; within one file that is harmless.
    set_target_properties(${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${name} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
  fa_link_check(${name})
endfunction()
