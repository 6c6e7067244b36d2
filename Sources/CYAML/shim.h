/* libyaml (Debian: libyaml-dev), the YAML 1.1 parser Yams wraps: read here directly so the
 * daemon keeps to FoundationEssentials (Yams links the whole of Foundation and ICU). */
#include <yaml.h>
