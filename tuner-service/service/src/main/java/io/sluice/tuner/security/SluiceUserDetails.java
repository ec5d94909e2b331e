package io.sluice.tuner.security;

import java.util.Set;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;

/**
 * A user of the users file as Spring Security sees it, with the queues an OPERATOR is limited to.
 */
final class SluiceUserDetails extends User {
  private final Set<String> queues;

  SluiceUserDetails(Credentials.User u) {
    super(
        u.name(),
        u.password(),
        u.roles().stream().map(r -> new SimpleGrantedAuthority(r.authority())).toList());
    this.queues = u.queues();
  }

  Set<String> queues() {
    return queues;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    return super.hashCode();
  }
}
