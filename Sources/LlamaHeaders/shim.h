// llama.cpp's public header, found through the notes-llama pkg-config file.
#include <llama.h>
