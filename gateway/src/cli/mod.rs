//! Commands an operator runs against a gateway that is serving (`portal-gateway cache …`). They
//! speak to its admin API over HTTP, never to the CMS or to Redis.

pub mod cache;
