// The system SQLite headers, for Storage.
#include <sqlite3.h>
