/* libxml2's reader API, for GeoCampaignCore's GPX reader only.
 * Debian builds libxml2 with ICU, and its encoding.h then includes <unicode/ucnv.h>, whose types
 * clash with Foundation's own copy of ICU. Nothing here uses the ICU fields of
 * xmlCharEncodingHandler, so the headers are read as if libxml2 had been built without ICU. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
