#!/usr/bin/env bash
# `make test-wordpress`: the gateway in front of a real WordPress (Debian's package), and the
# mu-plugin deploy/wordpress/portal-webhook.php calling the gateway's webhook from inside it.
#
# A throwaway site under target/wordpress (wiped at every run): MariaDB on a socket, no network;
# WordPress installed and seeded from PHP's CLI; PHP's built-in server on 127.0.0.1:18339; the
# gateway with config/examples/wordpress.toml on 127.0.0.1:18340. Then check-upstream (0 errors), and
# edits made through WordPress's own functions (wp_update_post, wp_update_term, wp_delete_post), each
# of which runs the plugin: the cached answers must show the edit within a second. Last, polling
# instead of the plugin: a second gateway on 127.0.0.1:18341, without the webhook's secret, with the
# [dialect.changes] block of the example config uncommented (every 2 s), on a site whose zone is
# Asia/Shanghai, must show an edit within every + 3 s, reloaded by the gateway itself.
#
# GATEWAY_BIN names the gateway binary (the Makefile passes the release build); without it,
# target/debug/portal-gateway, built when missing. WORDPRESS_KEEP=1 leaves WordPress and the gateway
# running after the tests (to try config/examples/wordpress.toml on them) until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
T=$ROOT/target/wordpress
WP_ADDR=127.0.0.1:18339
GW_ADDR=127.0.0.1:18340
GW=http://$GW_ADDR
GW2_ADDR=127.0.0.1:18341
GW2=http://$GW2_ADDR
POLL_EVERY=2
CONFIG=config/examples/wordpress.toml
# The example leaves the company's name to the integrator: this test site holds the demo company's posts.
export PORTAL__SITE__COMPANY_NAME=云川陆港国际物流集团有限公司

started=$(date +%s%N)
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }
say() { printf 'test-wordpress: %s\n' "$*"; }
step_start=0
step() { step_start=$(date +%s%N); say "$*"; }
done_in() { say "  ok ($(ms_since "$step_start") ms)${1:+: $1}"; }

scripts/ensure-system-deps.sh wordpress php-cli:php php-mysql mariadb-server:mariadbd

GATEWAY_BIN=${GATEWAY_BIN:-target/debug/portal-gateway}
if [ ! -x "$GATEWAY_BIN" ]; then
  say "building $GATEWAY_BIN"
  cargo build --locked -p portal-gateway
fi

LOGS=(gateway.log gateway-poll.log php-server.log mariadb.log cli.log)
# shellcheck source=scripts/lib/throwaway.sh
. scripts/lib/throwaway.sh
refuse_taken $WP_ADDR $GW_ADDR $GW2_ADDR

rm -rf "$T"
mkdir -p "$T/empty-app"
secret=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
db_password=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')

# --- MariaDB: a fresh data directory, a socket, no TCP ---------------------------------------------
step "MariaDB in $T/db"
mariadb-install-db --no-defaults --datadir="$T/db" --user=root --skip-test-db \
  --auth-root-authentication-method=socket >"$T/mariadb-install.log" 2>&1 ||
  { cat "$T/mariadb-install.log" >&2; fail "mariadb-install-db"; }
setsid mariadbd --no-defaults --datadir="$T/db" --socket="$T/mysqld.sock" --skip-networking \
  --user=root --pid-file="$T/mariadbd.pid" --log-error="$T/mariadb.log" --skip-log-bin \
  --innodb-buffer-pool-size=32M --innodb-flush-log-at-trx-commit=0 </dev/null >/dev/null 2>&1 &
pids+=($!)
sql() { mariadb --no-defaults --socket="$T/mysqld.sock" -uroot "$@"; }
wait_for 30 mariadb-admin --no-defaults --socket="$T/mysqld.sock" -uroot ping || fail "MariaDB did not start"
sql -e "CREATE DATABASE wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
        CREATE USER 'wordpress'@'localhost' IDENTIFIED BY '$db_password';
        GRANT ALL ON wordpress.* TO 'wordpress'@'localhost';"
done_in

# --- WordPress: Debian's files, our wp-config.php --------------------------------------------------
step "WordPress site in $T/site"
SITE=$T/site
# Debian's tree links into /etc/wordpress and /usr/share/javascript: copied as files.
cp -rL /usr/share/wordpress "$SITE"
rm -f "$SITE/wp-config.php" "$SITE/.htaccess"
mkdir -p "$SITE/wp-content/uploads" "$SITE/wp-content/mu-plugins"
salts=$(for k in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
  printf "define('%s', '%s');\n" "$k" "$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
done)
cat >"$SITE/wp-config.php" <<PHP
<?php
// The test site's config (Debian's own reads /etc/wordpress): written by scripts/test-wordpress.sh.
define('DB_NAME', 'wordpress');
define('DB_USER', 'wordpress');
define('DB_PASSWORD', '$db_password');
define('DB_HOST', 'localhost:$T/mysqld.sock');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
$salts
\$table_prefix = 'wp_';
define('WP_HOME', 'http://$WP_ADDR');
define('WP_SITEURL', 'http://$WP_ADDR');
define('WP_DEBUG', false);
// No calls out (updates, the plugin directory), no cron run by a page load: retries are run here.
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('DISABLE_WP_CRON', true);
// The portal's webhook (deploy/wordpress/portal-webhook.php). The override lets the test point it
// at a closed port once, to see a retry scheduled; TEST_PORTAL_WEBHOOK_UNSET leaves both constants
// out, as a wp-config.php PHP compiled before they were added would.
if (!getenv('TEST_PORTAL_WEBHOOK_UNSET')) {
    define('PORTAL_WEBHOOK_URL', getenv('TEST_PORTAL_WEBHOOK_URL') ?: 'http://$GW_ADDR/portal/admin/webhook');
    define('PORTAL_WEBHOOK_SECRET', '$secret');
}
define('PORTAL_WEBHOOK_POST_TYPES', 'post');
if (!defined('ABSPATH')) {
    define('ABSPATH', __DIR__ . '/');
}
require_once ABSPATH . 'wp-settings.php';
PHP

# PHP's built-in server has no rewrite rules: files as they are, everything else (/wp-json/…,
# permalinks) through index.php, as Apache's .htaccess would.
cat >"$T/router.php" <<'PHP'
<?php
$path = urldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?? '/');
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if ($path !== '/' && (is_file($file) || is_file(rtrim($file, '/') . '/index.php'))) {
    return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
require $_SERVER['SCRIPT_FILENAME'];
PHP

# WordPress from the command line: install, seed, and the edits the test makes. Each command prints
# what the plugin sent (`webhook <event> <type> <id> <HTTP status>`) and its own result.
cat >"$T/cli.php" <<'PHP'
<?php
[$self, $command] = $argv + [null, null];
$args = array_slice($argv, 2);
$_SERVER['HTTP_HOST'] = parse_url(getenv('WP_HOME_URL'), PHP_URL_HOST) . ':' . parse_url(getenv('WP_HOME_URL'), PHP_URL_PORT);
$_SERVER['REQUEST_METHOD'] = 'GET';
if ($command === 'install') {
    define('WP_INSTALLING', true);
}
require getenv('WP_SITE') . '/wp-load.php';
add_filter('pre_wp_mail', '__return_true');
add_action('portal_webhook_sent', function ($notice, $status, $attempt) {
    printf("webhook %s %s %d %d attempt=%d\n", $notice['event'], $notice['type'], $notice['id'], $status, $attempt);
}, 10, 3);
// In a function: WordPress's globals ($post, $id…) stay its own.
run($command, $args);

function run($command, $args) {
switch ($command) {
case 'install':
    global $wp_rewrite;
    require_once ABSPATH . 'wp-admin/includes/upgrade.php';
    $result = wp_install('云川陆港国际物流集团', 'editor', 'editor@example.com', false, '', wp_generate_password(24));
    update_option('timezone_string', 'Asia/Shanghai');
    update_option('blogdescription', '联通亚欧的陆港物流');
    $wp_rewrite->set_permalink_structure('/%year%/%monthnum%/%postname%/');
    flush_rewrite_rules(false);
    wp_delete_post(1, true); // "Hello world!"
    echo "installed user {$result['user_id']}\n";
    break;

case 'seed':
    wp_set_current_user(1);
    $make_term = function ($name, $slug, $parent = 0, $description = '') {
        $t = wp_insert_term($name, 'category', ['slug' => $slug, 'parent' => $parent, 'description' => $description]);
        if (is_wp_error($t)) { fwrite(STDERR, $t->get_error_message() . "\n"); exit(1); }
        return $t['term_id'];
    };
    $news = $make_term('新闻中心', 'news_center');
    $company = $make_term('公司要闻', 'company_announcement', $news, '集团重要新闻');
    $notice = $make_term('通知公告', 'notice', $news);
    $make_post = function ($title, $slug, $category, $days_ago, $content) {
        $id = wp_insert_post([
            'post_title' => $title, 'post_name' => $slug, 'post_content' => $content,
            'post_status' => 'publish', 'post_category' => [$category], 'post_author' => 1,
            'post_date' => wp_date('Y-m-d H:i:s', time() - $days_ago * 86400),
        ], true);
        if (is_wp_error($id)) { fwrite(STDERR, $id->get_error_message() . "\n"); exit(1); }
        return $id;
    };
    $ids = [];
    $ids['train'] = $make_post('云川—汉堡中欧班列累计开行突破3000列', 'hamburg-3000', $company, 1,
        "<p>今年以来，云川—汉堡中欧班列保持<strong>“去程满载、回程稳定”</strong>的运行态势。</p>\n<p>集团将继续加密班列频次。</p>");
    $ids['park'] = $make_post('融合创新产业园二期项目开工', 'park-phase-two', $company, 2,
        '<p>产业园二期建设冷链仓储与跨境分拨中心，详见<a href="' . home_url('/' . wp_date('Y/m', time() - 86400) . '/hamburg-3000/') . '">班列消息</a>。</p>');
    $ids['warehouse'] = $make_post('海外仓网络新增波兰站点', 'poland-warehouse', $company, 3, '<p>华沙海外仓正式投入运营。</p>');
    $ids['card'] = $make_post('集卡平台上线预约进港功能', 'truck-booking', $company, 4, '<p>司机可在线预约进港时段。</p>');
    $ids['safety'] = $make_post('集团开展安全生产月主题活动', 'safety-month', $company, 5, '<p>各单位开展隐患排查与应急演练。</p>');
    $ids['ecommerce'] = $make_post('跨境电商集货中心单日处理量创新高', 'ecommerce-record', $company, 6, '<p>单日处理包裹逾十二万件。</p>');
    $ids['holiday'] = $make_post('关于国庆节期间班列运行安排的通知', 'national-day-schedule', $notice, 1, '<p>国庆期间班列照常运行。</p>');
    $ids['tender'] = $make_post('仓储设备采购项目招标公告', 'storage-tender', $notice, 2, '<p>欢迎符合条件的供应商参与投标。</p>');
    $ids['notice3'] = $make_post('关于启用新版客户服务热线的通知', 'service-hotline', $notice, 3, '<p>新版热线即日起启用。</p>');
    // In two categories, 公司要闻 its primary (as Yoast SEO records one): each list shows it under
    // its own category, its own address under the primary.
    $ids['both'] = $make_post('关于中欧班列开行跨年专列的通知', 'new-year-train', $notice, 4, '<p>跨年专列于12月31日发车。</p>');
    wp_set_post_categories($ids['both'], [$notice, $company]);
    update_post_meta($ids['both'], '_yoast_wpseo_primary_category', $company);
    // A featured image (the cover), a 1×1 PNG in the uploads.
    $upload = wp_upload_dir();
    $file = $upload['path'] . '/train-cover.png';
    file_put_contents($file, base64_decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='));
    $media = wp_insert_attachment(['post_mime_type' => 'image/png', 'post_title' => '班列', 'post_status' => 'inherit'], $file, $ids['train']);
    set_post_thumbnail($ids['train'], $media);
    stick_post($ids['train']);
    echo json_encode(['news' => $news, 'company' => $company, 'notice' => $notice] + $ids), "\n";
    break;

case 'title':
    // Saved $times times in this request, as an editor's save may: one notice all the same.
    [$id, $title, $times] = $args + [null, null, 1];
    for ($i = 0; $i < $times; $i++) {
        $r = wp_update_post(['ID' => (int) $id, 'post_title' => $title, 'post_excerpt' => "第 $i 次保存"], true);
        echo is_wp_error($r) ? 'error ' . $r->get_error_message() . "\n" : "updated $r\n";
    }
    break;

case 'status':
    [$id, $status] = $args;
    $r = wp_update_post(['ID' => (int) $id, 'post_status' => $status], true);
    echo is_wp_error($r) ? 'error ' . $r->get_error_message() . "\n" : "updated $r\n";
    break;

case 'delete':
    $r = wp_delete_post((int) $args[0], true);
    echo $r ? "deleted {$r->ID}\n" : "error\n";
    break;

case 'term':
    [$id, $name] = $args;
    $r = wp_update_term((int) $id, 'category', ['name' => $name]);
    echo is_wp_error($r) ? 'error ' . $r->get_error_message() . "\n" : "updated term {$r['term_id']}\n";
    break;

case 'notices':
    // What an administrator's wp-admin shows above every screen.
    wp_set_current_user(1);
    do_action('admin_notices');
    break;

case 'retries':
    // The retries the plugin scheduled, run now (what WordPress's cron does when they are due).
    $ran = 0;
    foreach (_get_cron_array() ?: [] as $time => $hooks) {
        foreach ($hooks['portal_webhook_retry'] ?? [] as $event) {
            wp_unschedule_event($time, 'portal_webhook_retry', $event['args']);
            do_action_ref_array('portal_webhook_retry', $event['args']);
            $ran++;
        }
    }
    echo "retries $ran\n";
    break;

default:
    fwrite(STDERR, "unknown command $command\n");
    exit(2);
}
}
PHP

export WP_SITE=$SITE WP_HOME_URL=http://$WP_ADDR
wp() { php -d display_errors=stderr "$T/cli.php" "$@" 2>>"$T/cli.log"; }
wp install >>"$T/cli.log" || fail "wp_install"
seed=$(wp seed) || fail "seeding the site"
# shellcheck disable=SC2016 # PHP's own variables
id_of() { php -r 'echo json_decode($argv[1], true)[$argv[2]];' "$seed" "$1"; }
TRAIN=$(id_of train) PARK=$(id_of park) CARD=$(id_of card) SAFETY=$(id_of safety) HOLIDAY=$(id_of holiday)
WAREHOUSE=$(id_of warehouse)
COMPANY=$(id_of company) NOTICE=$(id_of notice) BOTH=$(id_of both)
# The plugin, installed as an integrator would (after the seed: those posts were never on the portal).
cp deploy/wordpress/portal-webhook.php "$SITE/wp-content/mu-plugins/"
done_in "posts $TRAIN…$(id_of notice3), 公司要闻 is category $COMPANY"

step "PHP's server on $WP_ADDR"
# Workers: WordPress answers the gateway while another request is being served.
(cd "$SITE" && PHP_CLI_SERVER_WORKERS=4 exec setsid php -d opcache.enable_cli=1 -S "$WP_ADDR" "$T/router.php" \
  </dev/null >"$T/php-server.log" 2>&1) &
pids+=($!)
wait_for 20 curl -sf "http://$WP_ADDR/wp-json/wp/v2/categories" || fail "WordPress's REST API did not answer"
headers=$(curl -s -D - -o /dev/null "http://$WP_ADDR/wp-json/wp/v2/posts?categories=$COMPANY&per_page=2")
grep -qi '^x-wp-total: 7' <<<"$headers" || fail "no X-WP-Total: 7 for 公司要闻: $headers"
done_in

step "check-upstream"
set +e
"$GATEWAY_BIN" check-upstream --config "$CONFIG" >"$T/check-upstream.txt" 2>&1
rc=$?
set -e
grep -v '^ *\(change\|fix\|where\):' "$T/check-upstream.txt" | grep -v 'no category leads to the portal route' || true
[ $rc -eq 0 ] || fail "check-upstream exited $rc (see above)"
# The test site has the news sections alone: the other portal routes are warned of, nothing else.
others=$(grep '^ *! warning' "$T/check-upstream.txt" | grep -vc 'no category leads to the portal route' || true)
[ "$others" = 0 ] || fail "check-upstream warned of more than the sections the site lacks (see above)"
done_in "full report: $T/check-upstream.txt"

step "init: the config written for this WordPress from its address alone"
set +e
PORTAL__UPSTREAM__CLIENT_SECRET=portal-gateway "$GATEWAY_BIN" init --base-url "http://$WP_ADDR/" \
  --out "$T/init.toml" --force >"$T/init.txt" 2>&1
rc=$?
set -e
grep -q 'WordPress (REST API) recognised' "$T/init.txt" || { cat "$T/init.txt"; fail "init did not recognise WordPress"; }
[ $rc -eq 0 ] || { cat "$T/init.txt"; fail "init exited $rc"; }
grep -q '^company_name = ' "$T/init.toml" || fail "init did not take the site's title as the company's name"
grep -q 'portal-gateway"$' "$T/init.toml" && fail "init wrote the credential"
set +e
PORTAL__UPSTREAM__CLIENT_SECRET=portal-gateway "$GATEWAY_BIN" check-upstream --config "$T/init.toml" >"$T/init-check.txt" 2>&1
rc=$?
set -e
[ $rc -eq 0 ] || { cat "$T/init-check.txt"; fail "check-upstream of init's config exited $rc"; }
done_in "$(grep -E '^[0-9]+ errors' "$T/init-check.txt")"

step "the gateway on $GW_ADDR"
PORTAL__SERVER__LISTEN=$GW_ADDR PORTAL__SERVER__STATIC_DIR="$T/empty-app" PORTAL__SERVER__WATCH_CONFIG=false \
  PORTAL__ADMIN__WEBHOOK_SECRET=$secret \
  setsid "$GATEWAY_BIN" --config "$CONFIG" </dev/null >"$T/gateway.log" 2>&1 &
pids+=($!)
# /healthz, not /readyz: this gateway serves the API alone (no app build), which /readyz counts as not ready.
wait_for 20 curl -sf "$GW/healthz" || fail "the gateway did not start"
done_in

# GET $1 from the gateway at $gw into $T/body and $T/headers; prints the status.
gw=$GW
get() { curl -s -o "$T/body" -D "$T/headers" -w '%{http_code}' "$gw$1" || true; }
cache_of() { tr -d '\r' <"$T/headers" | awk -F': ' 'tolower($1)=="x-cache"{print $2}'; }
detail() { get "/portal/api/article/detail?id=$1"; }
# Caches $1 (a path): asked twice, the second answer must come from the cache.
cached() {
  local status
  status=$(get "$1")
  [ "$status" = 200 ] || fail "GET $1 answered $status: $(head -c 300 "$T/body")"
  get "$1" >/dev/null
  [ "$(cache_of)" = HIT ] || fail "GET $1 a second time was not a cache hit (x-cache: $(cache_of))"
}
# Waits up to 1 s for GET $1 to answer status $2 with $3 in its body (or anything, when $3 is empty).
within_a_second() {
  local t0 status
  t0=$(date +%s%N)
  while :; do
    status=$(get "$1")
    if [ "$status" = "$2" ] && { [ -z "$3" ] || grep -qF -- "$3" "$T/body"; }; then
      ms_since "$t0"
      return 0
    fi
    [ "$(ms_since "$t0")" -lt 1000 ] || fail "GET $1 did not answer $2${3:+ with \"$3\"} within a second (last: $status $(head -c 300 "$T/body"))"
    sleep 0.05
  done
}
# Runs a WordPress command; its output must report the webhook answered $1 (an HTTP status).
edit() {
  local want=$1 out
  shift
  out=$(wp "$@") || fail "php cli.php $*: $out"
  printf '%s\n' "$out" >>"$T/cli.log"
  grep -q "^webhook .* $want attempt=" <<<"$out" || fail "after '$*' the plugin did not report the webhook's $want: $out"
  grep -c '^webhook ' <<<"$out" >"$T/notices"
}

step "the article, through the gateway"
cached "/portal/api/article/detail?id=$TRAIN"
grep -qF '汉堡中欧班列累计开行突破3000列' "$T/body" || fail "the detail lacks the title: $(head -c 300 "$T/body")"
grep -qF '"/portal/api/files/' "$T/body" || fail "the cover is not served through the gateway: $(head -c 400 "$T/body")"
# shellcheck disable=SC2016
cover=$(php -r 'echo json_decode(file_get_contents($argv[1]), true)["result"]["cover"] ?? "";' "$T/body")
[ "$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "$GW$cover")" = "200 image/png" ] || fail "the cover $cover"
detail "$PARK" >/dev/null
grep -qF "/portal/article/$TRAIN" "$T/body" || fail "the permalink in $PARK's body is not the portal's article page: $(head -c 600 "$T/body")"
done_in "title, cover $cover, permalink → /portal/article/$TRAIN"

step "a post in two categories: under the list's in each list, under its primary at its own address"
# The category id the gateway gives post $BOTH in the answer in $T/body (a list's item or a detail).
category_of_both() {
  php -r '$r = json_decode(file_get_contents($argv[1]), true)["result"];
    foreach ((is_array($r["content"] ?? null) ? $r["content"] : [$r]) as $a) { if ((string) $a["id"] === $argv[2]) { echo $a["categoryId"]; } }' "$T/body" "$BOTH"
}
get "/portal/api/article/list?categoryId=$NOTICE&page=1&size=20" >/dev/null
[ "$(category_of_both)" = "$NOTICE" ] || fail "通知公告's list shows post $BOTH under category '$(category_of_both)', not $NOTICE"
get "/portal/api/article/list?categoryId=$COMPANY&page=1&size=20" >/dev/null
[ "$(category_of_both)" = "$COMPANY" ] || fail "公司要闻's list shows post $BOTH under category '$(category_of_both)', not $COMPANY"
detail "$BOTH" >/dev/null
[ "$(category_of_both)" = "$COMPANY" ] || fail "post $BOTH's detail is under category '$(category_of_both)', not its primary $COMPANY"
done_in "通知公告 $NOTICE, 公司要闻 $COMPANY, the detail its primary $COMPANY"

step "wp_update_post: a new title"
cached "/portal/api/article/detail?id=$TRAIN"
t0=$(date +%s%N)
edit 200 title "$TRAIN" "云川—汉堡中欧班列累计开行突破3100列" 2
[ "$(cat "$T/notices")" = 1 ] || fail "two saves in one request sent $(cat "$T/notices") notices, not one"
ms=$(within_a_second "/portal/api/article/detail?id=$TRAIN" 200 '3100列')
done_in "the edit (WordPress and its webhook) took $(ms_since "$t0") ms in all; new title served $ms ms after it"

step "wp_update_term: a category renamed"
cached /portal/api/category/list
edit 200 term "$COMPANY" 集团要闻
ms=$(within_a_second /portal/api/category/list 200 '集团要闻')
grep -q "CMS webhook applied changes=\[Change { event: Update, kind: Category, id: $COMPANY," "$T/gateway.log" ||
  fail "the gateway's log does not show the category's notice applied"
done_in "new name served $ms ms after it"

step "a webhook that fails is retried, signed afresh"
cached "/portal/api/article/detail?id=$CARD"
out=$(TEST_PORTAL_WEBHOOK_URL=http://127.0.0.1:9/portal/admin/webhook wp title "$CARD" "集卡平台预约进港功能全面上线") ||
  fail "the edit with the gateway unreachable: $out"
grep -q "^webhook update article $CARD 0 attempt=1" <<<"$out" || fail "no failed first attempt: $out"
grep -q "portal-webhook: update article $CARD failed (attempt 1 of 3).*retrying" "$T/cli.log" ||
  fail "the failure was not logged"
! grep -qF "$secret" "$T/cli.log" "$T/php-server.log" || fail "the secret is in a log"
edit 200 retries
grep -q "^webhook update article $CARD 200 attempt=2" <<<"$(tail -n 3 "$T/cli.log")" || fail "the retry was not attempt 2"
ms=$(within_a_second "/portal/api/article/detail?id=$CARD" 200 '全面上线')
done_in "retry 200, new title served $ms ms after it"

step "the plugin, not configured, says so: to administrators in wp-admin, and in PHP's log at each edit"
ECOMMERCE=$(id_of ecommerce)
out=$(TEST_PORTAL_WEBHOOK_UNSET=1 wp notices) || fail "wp-admin's notices: $out"
grep -q '门户网关通知未生效' <<<"$out" || fail "no notice in wp-admin with the constants unset: $out"
grep -q 'restart PHP-FPM' <<<"$out" || fail "the notice does not name opcache's stale wp-config.php: $out"
[ -z "$(wp notices)" ] || fail "a notice in wp-admin with the plugin configured: $(wp notices)"
out=$(TEST_PORTAL_WEBHOOK_UNSET=1 wp title "$ECOMMERCE" "跨境电商集货中心单日处理量再创新高") || fail "the edit: $out"
! grep -q '^webhook ' <<<"$out" || fail "a notice sent with the constants unset: $out"
grep -q "portal-webhook: the portal was not told of post $ECOMMERCE: PORTAL_WEBHOOK_URL / PORTAL_WEBHOOK_SECRET are not defined" \
  "$T/cli.log" || fail "PHP's log does not say the portal was not told of post $ECOMMERCE"
done_in

step "wp_update_post: unpublished (draft)"
cached "/portal/api/article/detail?id=$SAFETY"
edit 200 status "$SAFETY" draft
ms=$(within_a_second "/portal/api/article/detail?id=$SAFETY" 404 '')
done_in "404 $ms ms after it"

step "wp_delete_post: a published post deleted"
cached "/portal/api/article/detail?id=$HOLIDAY"
edit 200 delete "$HOLIDAY"
ms=$(within_a_second "/portal/api/article/detail?id=$HOLIDAY" 404 '')
done_in "404 $ms ms after it"

# Every notice the plugin sent was taken: 200 in the gateway's access log (written off the request
# path: the last line may lag), nothing else.
taken_all() { [ "$(grep -c 'path="/portal/admin/webhook" status=200 ' "$T/gateway.log")" = 5 ]; }
wait_for 2 taken_all || true
taken=$(grep -c 'path="/portal/admin/webhook" status=200 ' "$T/gateway.log" || true)
other=$(grep 'path="/portal/admin/webhook" status=' "$T/gateway.log" | grep -vc 'status=200 ' || true)
if [ "$taken" != 5 ] || [ "$other" != 0 ]; then
  fail "the gateway took $taken notices (5 expected) and answered $other others otherwise"
fi

# --- Polling ([dialect.changes]) instead of the webhook ---------------------------------------------
step "[dialect.changes]: a second gateway on $GW2_ADDR, polling every ${POLL_EVERY}s, no webhook"
# The block config/examples/wordpress.toml holds commented out, as an integrator would uncomment it.
block=$(sed -n "/^# \[dialect\.changes\]\$/,/^\$/{s/^# every = .*/# every = \"${POLL_EVERY}s\"/;s/^# //p}" "$CONFIG")
grep -q '^param = "modified_after"$' <<<"$block" || fail "no commented-out [dialect.changes] block in $CONFIG"
printf '%s\n\n%s\n' "$(cat "$CONFIG")" "$block" >"$T/polling.toml"
# WordPress keeps `post_modified` in the site's zone, set at install: not UTC (UTC+8).
# shellcheck disable=SC2016
zone=$(curl -s "http://$WP_ADDR/wp-json/" | php -r '$j = json_decode(stream_get_contents(STDIN), true); echo $j["timezone_string"], " ", $j["gmt_offset"];')
[ "$zone" = "Asia/Shanghai 8" ] || fail "the site's zone is '$zone', not Asia/Shanghai (+8)"
# Every post last modified 4 h ago: outside the question's 60 s overlap, inside the site's 8 h from
# UTC. A question read in the wrong zone (8 h early) or not filtered at all (a wrong `param`) would
# list them all; one compared 8 h late would miss the edit.
sql wordpress -e "UPDATE wp_posts SET post_modified = post_modified - INTERVAL 4 HOUR,
                  post_modified_gmt = post_modified_gmt - INTERVAL 4 HOUR" || fail "backdating the posts"
PORTAL__SERVER__LISTEN=$GW2_ADDR PORTAL__SERVER__STATIC_DIR="$T/empty-app" PORTAL__SERVER__WATCH_CONFIG=false \
  setsid "$GATEWAY_BIN" --config "$T/polling.toml" </dev/null >"$T/gateway-poll.log" 2>&1 &
pids+=($!)
wait_for 20 curl -sf "$GW2/healthz" || fail "the second gateway did not start"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$GW2/portal/admin/webhook")" = 404 ] ||
  fail "the second gateway's webhook is on"
gw=$GW2
cached "/portal/api/article/detail?id=$WAREHOUSE"
# The plugin's notice goes to the second gateway, which has no webhook (404): only polling is left.
TEST_PORTAL_WEBHOOK_URL=$GW2/portal/admin/webhook edit 404 title "$WAREHOUSE" "海外仓网络新增波兰华沙站点"
edited=$(date +%s%N)
limit=$(((POLL_EVERY + 3) * 1000))
while :; do
  status=$(get "/portal/api/article/detail?id=$WAREHOUSE")
  [ "$status" = 200 ] && grep -qF '华沙站点' "$T/body" && break
  [ "$(ms_since "$edited")" -lt "$limit" ] ||
    fail "the polling gateway did not show the new title within $limit ms (last: $status $(cache_of) $(head -c 300 "$T/body"))"
  sleep 0.1
done
ms=$(ms_since "$edited")
# Reloaded by the gateway: the first answer with the new title already comes from the cache.
[ "$(cache_of)" = HIT ] || fail "the first answer with the new title was $(cache_of), not a HIT: the visitor reloaded it"
applied() { grep 'CMS changes applied' "$T/gateway-poll.log" | sed 's/.*applied=\([0-9]*\).*/\1/' | tr '\n' ' '; }
wait_for 2 grep -q 'CMS changes applied' "$T/gateway-poll.log" || true
[ "$(applied)" = "1 " ] || fail "polling applied changes $(applied)(the edited post alone expected)"
! grep -q 'asking the CMS what changed failed' "$T/gateway-poll.log" || fail "a question to WordPress failed"
# WordPress takes the gateway's UTC time to the second: 1 s before the edit lists the post, the
# edit's own second (the comparison is `>`) does not.
# shellcheck disable=SC2016
modified=$(curl -s "http://$WP_ADDR/wp-json/wp/v2/posts?include=$WAREHOUSE&_fields=modified_gmt" |
  php -r 'echo json_decode(stream_get_contents(STDIN), true)[0]["modified_gmt"];')
at=$(date -u -d "${modified}Z" +%s) || fail "no modified_gmt: $modified"
# shellcheck disable=SC2016
changed_after() {
  curl -s "http://$WP_ADDR/wp-json/wp/v2/posts?modified_after=$(date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ)&_fields=id" |
    php -r 'echo implode(",", array_column(json_decode(stream_get_contents(STDIN), true), "id"));'
}
[ "$(changed_after $((at - 1)))" = "$WAREHOUSE" ] || fail "modified_after 1 s before the edit (UTC) lists $(changed_after $((at - 1)))"
[ -z "$(changed_after "$at")" ] || fail "modified_after at the edit (UTC) lists $(changed_after "$at")"
done_in "new title served $ms ms after the edit, a HIT; that post alone applied; modified_after ${modified}Z exact"

say "passed in $(ms_since "$started") ms (the gateway took 5 notices, refused none; the polling one saw the edit in $ms ms)"
if [ "${WORDPRESS_KEEP:-}" = 1 ]; then
  say "still running: WordPress at http://$WP_ADDR/wp-json/wp/v2/, the gateway at $GW/portal/api/, the polling one at $GW2/portal/api/; Ctrl-C stops them"
  wait
fi
