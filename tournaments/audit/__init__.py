"""The audit log: recording who did what (`services.audit`) and showing it (`presenters`)."""
