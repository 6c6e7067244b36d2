# apt_install PACKAGE…: installs Debian packages, waiting for the package manager's lock rather
# than failing at once when another install holds it (a CI runner's unattended upgrade, a second
# clone's test command): apt's own lock timeout for dpkg's lock, and a retry of `apt-get update`,
# whose lists lock apt does not wait for. Gives up after 10 minutes, saying which lock it waited on.
apt_install() {
    local waited=0
    until apt-get -o DPkg::Lock::Timeout=600 update -qq; do
        if [ $waited -ge 600 ]; then
            echo "apt-get update: the package lists' lock was still held after ${waited} s" >&2
            return 1
        fi
        echo "apt-get update failed (another install may hold the lock); waiting…" >&2
        sleep 10
        waited=$((waited + 10))
    done
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" > /dev/null
}
