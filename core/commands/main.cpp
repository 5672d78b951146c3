// shardbench-cli of the Qt-free core build (SHARDBENCH_GUI=OFF): the plan and
// checkpoint commands, for a GPU node with only a compiler, CMake and LibTorch.
// The full build's app/cli/main.cpp serves the same table plus its Qt
// commands.
#include "command_table.hpp"

#include <iostream>

int main(int argc, char** argv)
{
    sb::cli::CommandTable table = sb::cli::coreCommands();
    table.setFullBuildOnly(sb::cli::fullBuildCommands());
    return table.dispatch(argc, argv, std::cout, std::cerr);
}
