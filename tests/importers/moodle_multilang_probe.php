<?php
// Moodle's own multi-language filter (filter_multilang's text_filter) on texts, for a reader of a
// given language: prints, as JSON, what Moodle shows of each. The input file holds a JSON list of
// [text, Moodle language code, "new" or "old"]: "old" reads the syntax of a site that has not run
// tool_multilangupgrade (<lang lang="xx">).
// Usage: php moodle_multilang_probe.php MOODLE_SRC JSON_FILE (with the harness's MOODLE_HARNESS_* set).
define('CLI_SCRIPT', true);
require(rtrim($argv[1], '/') . '/config.php');
$filter = new \filter_multilang\text_filter(context_system::instance(), []);
$shown = [];
foreach (json_decode(file_get_contents($argv[2]), true) as [$text, $language, $syntax]) {
    $SESSION->forcelang = $language;
    $CFG->filter_multilang_converted = $syntax === 'new' ? 1 : 0;
    $shown[] = $filter->filter($text);
}
echo json_encode($shown), "\n";
