// Commands that change what the run store says about runs, as the Runs
// area's context menu does: rename, tag, note, delete. Deleting removes the
// run's records (metrics, events, logs, checkpoint rows), never checkpoint
// files, refuses a run that may still be training, and asks first (--yes
// where there is no terminal to ask on). Exit codes: 0; 1 when the store
// cannot be written; 2 on bad input (unknown run, missing store, a refusal).
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace sb::cli {

int cmdRename(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdTag(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdNote(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int cmdDelete(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// The same, reading the note (`note RUN -`) and the answer to delete's
// question from `in`; `inIsTerminal` says whether a person can answer.
int cmdNote(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
int cmdDelete(const std::vector<std::string>& args, std::istream& in, bool inIsTerminal, std::ostream& out, std::ostream& err);

// The usage of each, as its errors and --help print it.
extern const char* const kRenameUsage;
extern const char* const kTagUsage;
extern const char* const kNoteUsage;
extern const char* const kDeleteUsage;

} // namespace sb::cli
