# Debian packages with CPack: `queuescope` (the console with `queuescope run`, its
# data and desktop files) and `queuescope-broker` (the standalone server and its
# systemd unit), both under /usr. `bash packaging/dev.sh package` builds them into
# build/packages/. Depends come from dpkg-shlibdeps. In the descriptions, CPack
# indents every line after the synopsis and turns an empty line into " .".
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_NAME queuescope)
set(CPACK_PACKAGE_VENDOR "Queuescope developers")
set(CPACK_PACKAGE_CONTACT "Queuescope developers <maintainers@queuescope.invalid>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEB_COMPONENT_INSTALL ON)
if(TARGET queuescope)
  set(CPACK_COMPONENTS_ALL app broker)
else()
  set(CPACK_COMPONENTS_ALL broker)  # a build without the GUI has no console to package
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_APP_PACKAGE_NAME queuescope)
set(CPACK_DEBIAN_APP_PACKAGE_SECTION devel)
set(CPACK_COMPONENT_APP_DESCRIPTION
    "desktop console for KubeMQ work queues
Queuescope shows a KubeMQ work queue at work: enqueue tasks with any policy,
run in-process worker pools (each worker a real KubeMQ client with its own
connection) and watch every assignment, ack, reject, redelivery, expiry and
dead-letter live. It starts an embedded KubeMQ-compatible broker when no server
is found, or connects to a real KubeMQ server.

`queuescope run` plays the same scenarios headless and prints a per-worker
summary; `queuescope lesson` plays guided lessons that ask for a prediction,
run real clients and check the outcome against the run.")

set(CPACK_DEBIAN_BROKER_PACKAGE_NAME queuescope-broker)
set(CPACK_DEBIAN_BROKER_PACKAGE_SECTION net)
set(CPACK_COMPONENT_BROKER_DESCRIPTION
    "KubeMQ-compatible work-queue broker
queuescope-broker serves the KubeMQ queues gRPC API (the protocol of KubeMQ
v2.4.0), so the official KubeMQ SDKs run against it. It keeps messages in
memory. A systemd unit binding 127.0.0.1:50000 ships with it, not enabled.")

include(CPack)
