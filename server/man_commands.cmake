# Writes help2man's include file: a COMMANDS section made of each subcommand's own --help, so the
# man page documents them from the text the binary prints. -DDDBD=<binary> -DOUTPUT=<file>
set(text "[COMMANDS]\n")
foreach(command health dump load)
  execute_process(COMMAND ${DDBD} ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "ddbd ${command} --help failed (${status})")
  endif()
  # roff: a leading '.' or '\'' would be a request; backslashes are escapes.
  string(REPLACE "\\" "\\\\" help "${help}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" help "${help}")
  string(APPEND text ".SS \"ddbd ${command}\"\n.nf\n${help}.fi\n")
endforeach()
file(WRITE ${OUTPUT} "${text}")
