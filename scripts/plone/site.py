"""Makes the Plone site of make test-plone (run by `zconsole run <zope.conf> site.py`): Plone's own
profile with plone.app.contenttypes and plone.restapi, no example content, Chinese."""
import transaction
from AccessControl.SecurityManagement import newSecurityManager
from Products.CMFPlone.factory import addPloneSite
from Testing.makerequest import makerequest

app = makerequest(app)  # noqa: F821 (zconsole gives the Zope application as `app`)
admin = app.acl_users.getUserById("admin")
newSecurityManager(None, admin.__of__(app.acl_users))
if "Plone" not in app.objectIds():
    addPloneSite(
        app,
        "Plone",
        title="青岚陆港",
        profile_id="Products.CMFPlone:plone",
        extension_ids=["plone.app.contenttypes:default", "plone.restapi:default"],
        default_language="zh-cn",
        setup_content=False,
    )
    transaction.commit()
