//! The portal's routes that show CMS content (spec §2): the app finds each one's category by the
//! category's `url`. The app's own table is `frontend/src/app/routes.ts`; a test keeps the two
//! in step. `check-upstream` reports a route no category leads to.

pub const PORTAL_ROUTES: &[&str] = &[
    "/about",
    "/about/company_profile",
    "/about/the_belt_and_road_Initiative",
    "/about/development_history",
    "/about/affiliate_enterprises",
    "/about/promotional-video",
    "/about/organizational_structure",
    "/about/corporate_vision",
    "/about/honor",
    "/news_center",
    "/news_center/company_announcement/1",
    "/news_center/media_coverage/2",
    "/news_center/notice",
    "/business",
    "/business/China-Europe_train",
    "/business/industrial_park",
    "/business/cross_border",
    "/business/oversea_location",
    "/business/card_platform",
    "/party-construction",
    "/party-construction/clean-honest",
    "/party-construction/trade-union-activities",
    "/party-construction/party-building-activities",
    "/liaison",
    "/liaison/future-outlook",
    "/liaison/friendly-cooperation",
    "/business_overview",
    "/business_overview/operation_mode",
    "/business_overview/cdb_site",
    "/business_overview/operating_route",
    "/business_overview/fuse",
    "/development_history",
    "/party",
    "/social_responsibility",
    "/social_responsibility/social_influence",
    "/social_responsibility/friend_cooperation",
];

#[cfg(test)]
mod tests {
    use super::PORTAL_ROUTES;

    /// Routes of the app that are not a category's: the home entry, the login redirect and
    /// the party-style detail (found by its article id).
    const NOT_CATEGORIES: &[&str] = &["/", "/login", "/party/detail"];

    #[test]
    fn the_list_matches_the_apps_route_table() {
        let table = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../frontend/src/app/routes.ts"
        ))
        .unwrap();
        let mut in_app: Vec<&str> = table
            .split('\'')
            .skip(1)
            .step_by(2)
            .filter(|s| s.starts_with('/') && !NOT_CATEGORIES.contains(s))
            .collect();
        in_app.sort_unstable();
        in_app.dedup();
        let mut here = PORTAL_ROUTES.to_vec();
        here.sort_unstable();
        assert_eq!(here, in_app);
    }
}
