#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call: SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE set
   to `on` (1: closing the connection leaves the write-ahead log as it is). Returns an SQLite code. */
static inline int geoc_sqlite3_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
