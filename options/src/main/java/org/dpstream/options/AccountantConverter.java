package org.dpstream.options;

import org.dpstream.core.online.AccountantChoice;

/** Enum-typed {@code --accountant} options of the online estimators: {@link AccountantChoice#parse}. */
public final class AccountantConverter extends ParsingConverter<AccountantChoice> {

  public AccountantConverter() {
    super(AccountantChoice::parse);
  }
}
