<?php
/**
 * Plugin Name: Portal webhook
 * Description: Tells the portal gateway when a post or a category changes (POST /portal/admin/webhook, signed with HMAC-SHA256), so an edit is live on the portal within a second instead of a cache TTL later.
 * Version: 1.0.0
 * Requires at least: 5.5
 * Requires PHP: 7.4
 * License: MIT
 *
 * A must-use plugin: copy this file into wp-content/mu-plugins/ and define in wp-config.php
 *
 *   define( 'PORTAL_WEBHOOK_URL', 'http://gateway.internal:8080/portal/admin/webhook' );
 *   define( 'PORTAL_WEBHOOK_SECRET', '…' );          // the gateway's admin.webhook_secret
 *   define( 'PORTAL_WEBHOOK_POST_TYPES', 'post' );   // optional, a comma list
 *
 * Without the first two it sends nothing, and says so: a notice to administrators in wp-admin and
 * a line in PHP's error log at each published change. The contract is in the gateway's docs/operations.md,
 * "The CMS's webhook (for CMS owners)".
 */

defined( 'ABSPATH' ) || exit;

/**
 * Every category of a post, its primary first: Yoast SEO's primary category when it names one of
 * them, else WordPress's order. A notice names them all (each one's lists show the post).
 */
function portal_webhook_categories_of( $post_id ) {
	$ids = wp_get_post_categories( $post_id, array( 'fields' => 'ids' ) );
	$ids = is_array( $ids ) ? array_map( 'intval', $ids ) : array();
	$primary = (int) get_post_meta( $post_id, '_yoast_wpseo_primary_category', true );
	if ( $primary > 0 && in_array( $primary, $ids, true ) ) {
		$ids = array_merge( array( $primary ), array_values( array_diff( $ids, array( $primary ) ) ) );
	}
	return $ids;
}

// `portal_category` in the REST API's posts: the post's primary category, which the gateway's
// config/examples/wordpress.toml reads before `categories.0`, so a post in several categories is
// shown under its primary one when opened by its own address (a list shows it under the list's).
// Registered whether or not the webhook is configured: it is read, not sent.
add_action(
	'rest_api_init',
	static function () {
		register_rest_field(
			'post',
			'portal_category',
			array(
				'get_callback' => static function ( $post ) {
					$ids = portal_webhook_categories_of( (int) $post['id'] );
					return $ids ? $ids[0] : null;
				},
				'schema'       => array(
					'description' => 'The post\'s primary category (Yoast SEO\'s, else its first), for the portal gateway.',
					'type'        => array( 'integer', 'null' ),
					'context'     => array( 'view', 'embed' ),
					'readonly'    => true,
				),
			)
		);
	}
);

if ( ! defined( 'PORTAL_WEBHOOK_URL' ) || ! defined( 'PORTAL_WEBHOOK_SECRET' )
	|| '' === (string) PORTAL_WEBHOOK_URL || '' === (string) PORTAL_WEBHOOK_SECRET ) {
	// Loud, not silent: an editor's change would reach the portal only when its cache expires.
	// The most common cause when wp-config.php does define them: PHP's opcache with
	// validate_timestamps=0 still runs the wp-config.php it compiled before they were added.
	$portal_webhook_why = 'PORTAL_WEBHOOK_URL / PORTAL_WEBHOOK_SECRET are not defined in the wp-config.php PHP is running'
		. ' (defined there? restart PHP-FPM: opcache.validate_timestamps=0 keeps the file it compiled before)';
	add_action(
		'admin_notices',
		static function () use ( $portal_webhook_why ) {
			if ( ! current_user_can( 'manage_options' ) ) {
				return;
			}
			echo '<div class="notice notice-error"><p><strong>门户网关通知未生效：</strong>文章与栏目的修改要等门户缓存过期后才会显示。'
				. esc_html( $portal_webhook_why ) . '</p></div>';
		}
	);
	add_action(
		'transition_post_status',
		static function ( $new_status, $old_status, $post ) use ( $portal_webhook_why ) {
			if ( 'publish' === $new_status || 'publish' === $old_status ) {
				error_log( 'portal-webhook: the portal was not told of post ' . (int) $post->ID . ': ' . $portal_webhook_why );
			}
		},
		10,
		3
	);
	return;
}

final class Portal_Webhook {
	/** Attempts per notice, the first included. */
	const MAX_ATTEMPTS = 3;
	/** The cron hook that sends a notice again. */
	const RETRY_HOOK = 'portal_webhook_retry';

	/**
	 * Notices of this request by "type:id:event": one save fires the hooks more than once
	 * (the block editor saves the post and then its meta boxes), the gateway needs one notice.
	 *
	 * @var array<string, array>
	 */
	private static $queue = array();

	public static function boot() {
		add_action( 'transition_post_status', array( __CLASS__, 'on_transition' ), 10, 3 );
		add_action( 'before_delete_post', array( __CLASS__, 'on_delete' ), 10, 1 );
		add_action( 'created_category', array( __CLASS__, 'on_category_created' ), 10, 1 );
		add_action( 'edited_category', array( __CLASS__, 'on_category_edited' ), 10, 1 );
		add_action( 'delete_category', array( __CLASS__, 'on_category_deleted' ), 10, 1 );
		// Sent at the end of the request: the terms a REST save sets after inserting the post
		// are there by then, and each notice goes once.
		add_action( 'shutdown', array( __CLASS__, 'flush' ) );
		add_action( self::RETRY_HOOK, array( __CLASS__, 'retry' ), 10, 2 );
	}

	/** The post types whose posts are the portal's articles. */
	private static function post_types() {
		$types = defined( 'PORTAL_WEBHOOK_POST_TYPES' ) ? (string) PORTAL_WEBHOOK_POST_TYPES : 'post';
		return array_filter( array_map( 'trim', explode( ',', $types ) ) );
	}

	private static function is_article( $post ) {
		if ( ! $post instanceof WP_Post ) {
			return false;
		}
		if ( wp_is_post_revision( $post ) || wp_is_post_autosave( $post ) ) {
			return false;
		}
		return in_array( $post->post_type, self::post_types(), true );
	}

	public static function on_transition( $new_status, $old_status, $post ) {
		if ( ! self::is_article( $post ) ) {
			return;
		}
		$was = 'publish' === $old_status;
		$is  = 'publish' === $new_status;
		if ( ! $was && ! $is ) {
			return; // A draft edited, a scheduled post moved: the portal never showed it.
		}
		$event = $is ? ( $was ? 'update' : 'publish' ) : 'unpublish';
		self::queue( 'article', $post->ID, $event, null );
	}

	public static function on_delete( $post_id ) {
		$post = get_post( $post_id );
		if ( ! self::is_article( $post ) || 'publish' !== $post->post_status ) {
			return; // Deleting from the trash: its unpublish was sent when it was trashed.
		}
		// Its terms are gone by the end of the request: read its category now.
		self::queue( 'article', $post->ID, 'delete', self::category_of( $post->ID ) );
	}

	public static function on_category_created( $term_id ) {
		self::queue( 'category', $term_id, 'publish', null );
	}

	public static function on_category_edited( $term_id ) {
		self::queue( 'category', $term_id, 'update', null );
	}

	public static function on_category_deleted( $term ) {
		self::queue( 'category', is_object( $term ) ? $term->term_id : $term, 'delete', null );
	}

	/** The post's primary category (Yoast SEO's, when it names one), else its first; or null. */
	private static function category_of( $post_id ) {
		$ids = self::categories_of( $post_id );
		return $ids ? $ids[0] : null;
	}

	/** Every category of the post, its primary first: each one's lists show it. */
	private static function categories_of( $post_id ) {
		return portal_webhook_categories_of( $post_id );
	}

	private static function queue( $type, $id, $event, $category_id ) {
		$id  = (int) $id;
		$key = "$type:$id:$event";
		if ( $id > 0 && ! isset( self::$queue[ $key ] ) ) {
			self::$queue[ $key ] = array(
				'event'      => $event,
				'type'       => $type,
				'id'         => $id,
				'categoryId' => $category_id,
			);
		}
	}

	public static function flush() {
		$notices     = self::$queue;
		self::$queue = array();
		foreach ( $notices as $notice ) {
			if ( 'article' === $notice['type'] && null === $notice['categoryId'] ) {
				$all                   = self::categories_of( $notice['id'] );
				$notice['categoryId']  = $all ? $all[0] : null;
				if ( count( $all ) > 1 ) {
					$notice['categoryIds'] = array_slice( $all, 1 );
				}
			}
			self::send( $notice, 1 );
		}
	}

	/** The cron event of a failed notice: sent again, with a new time and nonce. */
	public static function retry( $notice, $attempt ) {
		if ( is_array( $notice ) ) {
			self::send( $notice, (int) $attempt );
		}
	}

	/**
	 * Signs and sends one notice. Each attempt is signed afresh: the gateway refuses a notice it
	 * has taken before, and one signed more than five minutes ago.
	 */
	private static function send( array $notice, $attempt ) {
		$payload = array(
			'event' => $notice['event'],
			'type'  => $notice['type'],
			'id'    => (int) $notice['id'],
		);
		if ( ! empty( $notice['categoryId'] ) ) {
			$payload['categoryId'] = (int) $notice['categoryId'];
		}
		$payload['time']  = time();
		$payload['nonce'] = wp_generate_uuid4();
		$body             = wp_json_encode( $payload );

		$response = wp_remote_post(
			PORTAL_WEBHOOK_URL,
			array(
				'timeout'     => 3,
				'blocking'    => true,
				'redirection' => 0,
				'headers'     => array(
					'Content-Type'       => 'application/json',
					'X-Portal-Signature' => 'sha256=' . hash_hmac( 'sha256', $body, PORTAL_WEBHOOK_SECRET ),
				),
				'body'        => $body,
			)
		);
		$status = is_wp_error( $response ) ? 0 : (int) wp_remote_retrieve_response_code( $response );
		/** Fires after each attempt; $status is the gateway's HTTP status, 0 when it did not answer. */
		do_action( 'portal_webhook_sent', $payload, $status, $attempt );
		if ( $status >= 200 && $status < 300 ) {
			return;
		}

		$why = is_wp_error( $response )
			? $response->get_error_message()
			: 'HTTP ' . $status . ' ' . substr( wp_remote_retrieve_body( $response ), 0, 200 );
		// A 5xx, a 429 or no answer may pass; a 4xx (a wrong secret, a refused notice) will not.
		$again = ( 0 === $status || 429 === $status || $status >= 500 ) && $attempt < self::MAX_ATTEMPTS;
		error_log(
			sprintf(
				'portal-webhook: %s %s %d failed (attempt %d of %d): %s%s',
				$notice['event'],
				$notice['type'],
				$notice['id'],
				$attempt,
				self::MAX_ATTEMPTS,
				$why,
				$again ? '; retrying' : ''
			)
		);
		if ( $again ) {
			$retry = array(
				'event'      => $notice['event'],
				'type'       => $notice['type'],
				'id'         => (int) $notice['id'],
				'categoryId' => empty( $notice['categoryId'] ) ? null : (int) $notice['categoryId'],
			);
			wp_schedule_single_event( time() + 30 * $attempt, self::RETRY_HOOK, array( $retry, $attempt + 1 ) );
		}
	}
}

Portal_Webhook::boot();
