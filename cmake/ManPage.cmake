# Writes perfplan.1 (troff) from `perfplan --help` and each command's --help, so the man page
# never disagrees with the binary. Run as: cmake -DPERFPLAN=path -DOUT=perfplan.1
#                                              -DVERSION=x.y.z -P ManPage.cmake
execute_process(COMMAND ${PERFPLAN} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "perfplan --help failed (${rc})")
endif()
execute_process(COMMAND ${PERFPLAN} --help-all OUTPUT_VARIABLE all)
# troff: a leading '.' or '\'' would be a request; backslashes must be doubled.
function(perfplan_troff_escape in out)
  string(REPLACE "\\" "\\\\" t "${in}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" t "${t}")
  set(${out} "${t}" PARENT_SCOPE)
endfunction()
perfplan_troff_escape("${all}" all_escaped)
string(TIMESTAMP today "%Y-%m-%d" UTC)
file(WRITE ${OUT} ".TH PERFPLAN 1 \"${today}\" \"perfplan ${VERSION}\" \"User Commands\"
.SH NAME
perfplan \\- performance prediction and resource selection for data-intensive cluster jobs
.SH SYNOPSIS
.B perfplan
\\fICOMMAND\\fR [\\fIOPTIONS\\fR]
.br
.B perfplan --version
.SH DESCRIPTION
Every command and flag, as \\fBperfplan --help-all\\fR prints them:
.PP
.nf
${all_escaped}
.fi
.SH EXIT STATUS
0 ok; 1 the operation failed (including an answer that could not be written); 2 bad usage or bad
input, every problem printed as file:line: field: message.
.SH SEE ALSO
/usr/share/doc/perfplan/README.md and the documents beside it.
")
